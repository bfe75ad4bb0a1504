'use client';
// The recipe: the widgets entry imported in a client component (it registers them in the
// browser, and nothing during the server render); the tags typed by the React entry.
import 'transformer-playground/widgets';
import type {} from 'transformer-playground/react';

export default function Widgets() {
  return (
    <>
      <tp-tokenizer text="how are you" kind="word"></tp-tokenizer>
      <tp-attention model="reverse" text="abcdefghij" kind="cross"></tp-attention>
      <tp-train task="qa-toy" prompt="how are you" steps={600} autoplay></tp-train>
      {/* @ts-expect-error: not a number — the types entry checks attribute values */}
      <tp-train task="qa-toy" steps="many" hidden></tp-train>
    </>
  );
}
