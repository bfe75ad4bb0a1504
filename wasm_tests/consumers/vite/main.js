// The Vite app's entry: a shipped checkpoint's URL through Vite's `?url` import.
import reverse from 'transformer-playground/models/reverse.safetensors?url';
import { run } from './app.js';

run(reverse);
