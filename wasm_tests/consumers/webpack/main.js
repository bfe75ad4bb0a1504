// The webpack app's entry: a shipped checkpoint's URL through webpack 5's new URL(…, import.meta.url).
import { run } from './app.js';

run(new URL('transformer-playground/models/reverse.safetensors', import.meta.url));
