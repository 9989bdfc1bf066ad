// Puts a pasted or dropped image file on the board: readies it (image-prep.ts), centres it on the point given,
// and sends it; a refusal (not an image we take, too large, the board's image space full) is told as a notice.
// Knows nothing of React or Konva.
import { DEFAULT_IMAGE_MAX_SIDE } from '../../shared/images';
import type { Controller } from './controller';
import { placedSize, prepareImage } from './image-prep';

export async function placeImage(
  controller: Controller,
  file: File,
  at: { x: number; y: number },
): Promise<void> {
  const s = controller.store.getState();
  if (s.status.phase !== 'hosting' && s.status.phase !== 'joined') return;
  const maxSide = s.settings.imageMaxSide ?? DEFAULT_IMAGE_MAX_SIDE;
  const img = await prepareImage(file, { maxSide });
  if ('refused' in img) {
    controller.toast('warn', `Image not added: ${img.refused}`);
    return;
  }
  const { w, h } = placedSize(img.width, img.height);
  const r = await controller.invoke({
    cmd: 'image',
    type: img.type,
    data: img.data,
    x: Math.round(at.x - w / 2),
    y: Math.round(at.y - h / 2),
    w,
    h,
  });
  if (!r.ok) controller.toast('warn', `Image not added: ${r.reason}`);
}
