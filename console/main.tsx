/** Entry of the console bundle (bin/build.mjs → dist/console/app.js). */
import { render } from 'preact';
import { App } from './app.js';

const root = document.getElementById('app');
if (root) render(<App />, root);
