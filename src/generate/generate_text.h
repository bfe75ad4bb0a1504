// Text generation as its callers ask for it: the command line (`tp generate`), the bindings
// (`model.generate()`) and the probes (the model's own answer the trace follows) all go through
// generate_text(), so a prompt is read and an answer decoded the same way everywhere.
//
//   encoder-decoder:  the prompt is the source; the decoder starts from <SOS>; the answer is
//                     decoded on its own.
//   decoder-only, a sequence-to-sequence task's source (PromptRole::Source): the model reads
//                     "source <SOS>" and the answer after it is decoded on its own.
//   decoder-only, text it continues (PromptRole::Continue): the answer is decoded in the
//                     context of the prompt (bytes and leading spaces may straddle the boundary).
//   encoder-only:     refused (tp::Error): such a model predicts classes or tags, not text.
// In every case a final <EOS> ends the answer and is not part of its ids or text. A prompt given
// as text is encoded here, with the tokenizer's specials template around it (an imported model's
// BOS, as its own tokenizer encodes) unless GenerateOptions::add_special_tokens is off; the text
// is well-formed UTF-8 however the answer's byte tokens end.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "generate/generator.h"
#include "model/transformer.h"
#include "tokenize/tokenizer.h"

namespace tp {

// What the prompt is to a decoder-only model (an encoder-decoder reads every prompt as its source).
enum class PromptRole {
  Continue,  // text the model continues (a language model)
  Source,    // a sequence-to-sequence task's source: followed by <SOS>, the answer is new text
};

struct TextGeneration {
  std::vector<int> prompt_ids;  // what the model read: the prompt, then <SOS> for a decoder-only Source
  std::vector<int> answer;      // the new tokens without the final <EOS>
  std::string text;             // the answer as text ("" without a tokenizer)
  // What each id of result.ids adds to `text`, as a stream shows it: a character whose bytes
  // span several ids comes whole with the last of them (all "" without a tokenizer).
  std::vector<std::string> step_texts;
  bool continues_prompt = false;  // text continues the prompt (decoder-only, PromptRole::Continue)
  GenerateResult result;          // generate()'s own result (ids with the final <EOS>, steps, timing)
};

// Generates from `prompt` (token ids). `tokenizer` decodes the answer and gives the specials;
// without one (a model built from ids alone) the specials in `options` are used and `text` stays
// empty. tp::Error for an encoder-only model, an empty or too long prompt, or bad options.
TextGeneration generate_text(Transformer& model, const Tokenizer* tokenizer, std::vector<int> prompt, PromptRole role,
                             GenerateOptions options);
// The same from a prompt as text, encoded by `tokenizer` (with its specials template when
// options.add_special_tokens, the default).
TextGeneration generate_text(Transformer& model, const Tokenizer& tokenizer, std::string_view prompt, PromptRole role,
                             GenerateOptions options);

}  // namespace tp
