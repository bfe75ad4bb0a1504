// One prompt → answer path for every caller; see generate_text.h.
#include "generate/generate_text.h"

#include "core/error.h"

namespace tp {

TextGeneration generate_text(Transformer& model, const Tokenizer* tokenizer, std::vector<int> prompt, PromptRole role,
                             GenerateOptions options) {
  const ModelConfig& c = model.config();
  TP_CHECK(c.has_decoder(), "generation needs a model with a decoder; this one is ", to_string(c.arch),
           ": it predicts classes or tags for its input instead");
  if (tokenizer) options.specials = tokenizer->specials();
  const bool decoder_only = c.arch == Arch::DecoderOnly;
  if (decoder_only && role == PromptRole::Source) {
    TP_CHECK(options.specials.sos >= 0,
             "a decoder-only model reads a sequence-to-sequence source as \"source <SOS>\", but the tokenizer has no "
             "<SOS>");
    prompt.push_back(options.specials.sos);
  }
  TextGeneration out;
  out.result = generate(model, prompt, options);
  out.answer = out.result.ids;
  if (!out.answer.empty() && out.answer.back() == options.specials.eos) out.answer.pop_back();
  out.continues_prompt = decoder_only && role == PromptRole::Continue;
  if (tokenizer) {
    const std::vector<int> context = out.continues_prompt ? prompt : std::vector<int>{};
    out.text =
        out.continues_prompt ? tokenizer->decode_continuation(prompt, out.answer) : tokenizer->decode(out.answer);
    out.step_texts = tokenizer->decode_steps(context, out.result.ids);
  } else {
    out.step_texts.resize(out.result.ids.size());
  }
  out.prompt_ids = std::move(prompt);
  return out;
}

TextGeneration generate_text(Transformer& model, const Tokenizer& tokenizer, std::string_view prompt, PromptRole role,
                             GenerateOptions options) {
  std::vector<int> ids =
      options.add_special_tokens ? tokenizer.encode_with_specials(prompt).ids : tokenizer.encode(prompt).ids;
  return generate_text(model, &tokenizer, std::move(ids), role, std::move(options));
}

}  // namespace tp
