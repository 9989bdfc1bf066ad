// The renderer's entry: picks the bridge, wires it to the store through the controller, mounts React.
// Knows nothing of Node or the main process beyond the typed bridge in shared/.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { selectBridge } from './bridge/select-bridge';
import { Controller } from './controller/controller';
import { nextFrame } from './controller/event-intake';
import { Store } from './store/store';
import './styles/base.css';
import './styles/controls.css';
import './styles/start.css';
import './styles/board.css';
import './styles/chrome.css';
import './styles/panels.css';
import './styles/bandwidth.css';
import { App } from './screens/App';
import { controllerEditor } from './tools/editor';
import { Tools } from './tools/Tools';
import { ControllerContext, ToolsContext } from './view/context';

async function boot(): Promise<void> {
  const root = document.getElementById('root');
  if (!root) throw new Error('#root missing from index.html');
  const chosen = await selectBridge();
  const store = new Store();
  const controller = new Controller(chosen.bridge, store, nextFrame);
  controller.attach();
  const tools = new Tools(controllerEditor(controller));
  chosen.onBridgeState?.((bridge) => {
    store.dispatch({ type: 'bridge', bridge });
    // After a reconnect the core may have moved on: ask for the whole state again.
    if (bridge === 'open') controller.sync();
  });
  createRoot(root).render(
    <StrictMode>
      <ControllerContext.Provider value={controller}>
        <ToolsContext.Provider value={tools}>
          <App />
        </ToolsContext.Provider>
      </ControllerContext.Provider>
    </StrictMode>,
  );
}

void boot();
