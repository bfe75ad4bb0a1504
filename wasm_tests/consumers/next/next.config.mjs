// A static export (`next build` writes out/), built with Turbopack, Next 16's default; the app's
// own folder is the workspace root (the repository's lockfile above it is not this app's).
import { fileURLToPath } from 'node:url';

export default { output: 'export', turbopack: { root: fileURLToPath(new URL('.', import.meta.url)) } };
