// The board core's public surface: state, operations with exact inverses, the lock rules. Imports only shared/.
export type {
  Applied,
  ApplyResult,
  BoardEffect,
  BoardOp,
  BoardOpType,
  BoardRefusal,
  BoardState,
  Refused,
} from './types';
export { apply, refusalText } from './apply';
export { heldByOther } from './edits';
export { heldBy } from './locks';
export type { HistoryOp, Part, Side, Step } from './history';
export { ABSENT, fieldsSide, History, MAX_STEPS, movePart, objectSide, zOf } from './history';
export {
  bottomZ,
  emptyBoard,
  hashBoard,
  HASH_ORDER,
  MAX_OBJECTS,
  objectsByZ,
  sameBoard,
  shaped,
} from './state';
export { allocateObjectId, createWithId, ID_ORIGIN_BITS, ID_ORIGINS, isIdOf } from './ids';
