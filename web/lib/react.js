// react.js — the runtime half of 'transformer-playground/react', which is all types
// (react.d.ts: every widget's tag in React.JSX.IntrinsicElements). Importing it does nothing, so
// `import 'transformer-playground/react'` is harmless in a bundle; the widgets themselves come
// from 'transformer-playground/widgets', imported where the browser runs it ('use client').
export {};
