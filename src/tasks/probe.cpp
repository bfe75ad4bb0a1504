// Probes; see probe.h.
#include "tasks/probe.h"

#include <algorithm>

#include "core/error.h"
#include "generate/generate_text.h"

namespace tp {

namespace {

// The model's own greedy answer to `prompt` read as `role`, without the final <EOS>.
std::vector<int> greedy_answer(Transformer& model, const Tokenizer& tokenizer, const std::vector<int>& prompt,
                               PromptRole role, int max_new) {
  if (max_new < 1) return {};
  GenerateOptions o;
  o.max_new_tokens = std::min(max_new, 4096);
  return generate_text(model, &tokenizer, prompt, role, o).answer;
}

}  // namespace

Probe probe(Transformer& model, TaskKind kind, const Tokenizer& tokenizer, const std::string& input,
            const std::optional<std::string>& target, std::int64_t pad_to) {
  const ModelConfig& c = model.config();
  const SpecialTokens sp = tokenizer.specials();
  const auto name = [&](const auto& member) { return schema::name_of(c, member); };
  Example e;
  // The input as its model reads it: with the specials its tokenizer puts around a text (an
  // imported Llama's <s> first; none for the tokenizers this project trains).
  e.src = tokenizer.encode_with_specials(input).ids;
  const SpecialsTemplate& around = tokenizer.specials_template();
  TP_CHECK(e.src.size() > around.before.size() + around.after.size(), "the input gives no tokens; type some text");
  // A model that produces sequences reads "source → answer"; an encoder reads the sentence.
  const bool seq2seq =
      c.arch == Arch::EncoderDecoder || (c.arch == Arch::DecoderOnly && (target || kind == TaskKind::Seq2Seq));
  const TaskKind layout = seq2seq ? TaskKind::Seq2Seq : (c.arch == Arch::DecoderOnly ? TaskKind::Text : kind);
  if (c.arch == Arch::EncoderOnly) {
    const bool adds_cls = kind == TaskKind::Classify || c.head == HeadKind::Cls;
    const std::size_t tokens = e.src.size() + (adds_cls ? 1 : 0);
    TP_CHECK(tokens <= static_cast<std::size_t>(c.max_len), "the input has ", tokens, " tokens; this model's ",
             name(c.max_len), " is ", c.max_len, adds_cls ? " (the count includes <CLS>)" : "");
  } else {
    TP_CHECK(e.src.size() <= static_cast<std::size_t>(c.max_len), "the input has ", e.src.size(),
             " tokens; this model's ", name(c.max_len), " is ", c.max_len);
  }
  if (seq2seq) {
    if (target) {
      e.tgt = tokenizer.encode(*target).ids;
    } else {
      // An encoder-decoder's answer fills its decoder after <SOS>; a decoder-only one follows
      // "source <SOS>" in the same max_len.
      const int room = c.arch == Arch::EncoderDecoder ? c.max_len - 1 : c.max_len - static_cast<int>(e.src.size()) - 1;
      e.tgt = greedy_answer(model, tokenizer, e.src, PromptRole::Source, room);
    }
  }
  Probe p;
  p.output = e.tgt;
  p.batch = layout_batch(layout, c, sp, {&e});
  Batch& b = p.batch;
  if (c.arch == Arch::EncoderDecoder) {
    TP_CHECK(b.tgt_len <= c.max_len, "the target has ", e.tgt.size(), " tokens; with <SOS> the decoder input must fit ",
             "this model's ", name(c.max_len), " of ", c.max_len);
  } else if (c.arch == Arch::DecoderOnly) {
    TP_CHECK(b.tgt_len <= c.max_len, "the input, <SOS> and the target have ", b.tgt_len,
             " tokens together; this model's ", name(c.max_len), " is ", c.max_len);
  }
  // Padding the input shows the <PAD> mask with the model's own numbers.
  if (pad_to > 0) {
    std::vector<int>& seq = c.has_encoder() ? b.src : b.tgt_in;
    int& len = c.has_encoder() ? b.src_len : b.tgt_len;
    TP_CHECK(pad_to >= len && pad_to <= c.max_len, "padTo = ", pad_to, " must be between the input's length (", len,
             ") and this model's ", name(c.max_len), " (", c.max_len, ")");
    TP_CHECK(sp.pad >= 0, "padTo needs a <PAD> token, but the tokenizer has none");
    seq.resize(static_cast<std::size_t>(pad_to), sp.pad);
    len = static_cast<int>(pad_to);
  }
  // Targets of −1 everywhere: no loss, but the output probabilities are computed and traced.
  const bool pooled = c.head == HeadKind::Cls || c.head == HeadKind::Mean;
  b.targets.assign(pooled ? 1 : (c.has_decoder() ? b.tgt_len : b.src_len), -1);
  p.input = c.has_encoder() ? b.src : b.tgt_in;
  return p;
}

Trace trace_probe(Transformer& model, const Probe& p) {
  Trace trace;
  model.forward(p.batch, false, &trace);
  return trace;
}

std::vector<std::vector<Ranked>> predict(Transformer& model, TaskKind kind, const Tokenizer& tokenizer,
                                         const std::string& input, int top) {
  const ModelConfig& c = model.config();
  TP_CHECK(c.arch == Arch::EncoderOnly, "predict() is for encoder-only models; this model is ", to_string(c.arch),
           ": use generate()");
  const Probe p = probe(model, kind, tokenizer, input, std::nullopt, 0);
  model.forward(p.batch, false);
  const int classes = c.output_size();
  const bool pooled = c.head == HeadKind::Cls || c.head == HeadKind::Mean;
  const int rows = pooled ? 1 : p.batch.src_len;
  std::vector<std::vector<Ranked>> out(rows);
  for (int r = 0; r < rows; ++r) {
    const float* probs = model.probs() + static_cast<std::size_t>(r) * classes;
    std::vector<int> order(classes);
    for (int k = 0; k < classes; ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return probs[a] > probs[b]; });
    for (int k = 0; k < std::min(classes, top); ++k) out[r].push_back({order[k], probs[order[k]]});
  }
  return out;
}

}  // namespace tp
