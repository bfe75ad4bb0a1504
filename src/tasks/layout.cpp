// Batch layouts; see layout.h.
#include "tasks/layout.h"

#include <algorithm>

#include "core/error.h"

namespace tp {

const char* to_string(TaskKind kind) {
  switch (kind) {
    case TaskKind::Seq2Seq:
      return "seq2seq";
    case TaskKind::Text:
      return "text";
    case TaskKind::Classify:
      return "classify";
    case TaskKind::Tag:
      return "tag";
  }
  return "?";
}

namespace {

void pad_to(std::vector<int>& v, std::size_t n, int value) { v.resize(n, value); }

void append(std::vector<int>& to, const std::vector<int>& row) { to.insert(to.end(), row.begin(), row.end()); }

int needed(int id, const char* what) {
  TP_CHECK(id >= 0, "this layout needs a ", what, " token, but the tokenizer has none");
  return id;
}

}  // namespace

Batch layout_batch(TaskKind kind, const ModelConfig& c, const SpecialTokens& sp,
                   const std::vector<const Example*>& examples) {
  Batch batch;
  batch.size = static_cast<int>(examples.size());
  batch.pad_id = sp.pad;
  const int pad = sp.pad;
  if (kind == TaskKind::Seq2Seq && c.arch == Arch::EncoderDecoder) {
    const int sos = needed(sp.sos, "<SOS>"), eos = needed(sp.eos, "<EOS>");
    std::size_t S = 1, T = 1;
    for (const Example* e : examples) {
      S = std::max(S, e->src.size());
      T = std::max(T, e->tgt.size() + 1);
    }
    batch.src_len = static_cast<int>(S);
    batch.tgt_len = static_cast<int>(T);
    for (const Example* e : examples) {
      std::vector<int> src = e->src, in = {sos}, out = e->tgt;
      in.insert(in.end(), e->tgt.begin(), e->tgt.end());
      out.push_back(eos);
      pad_to(src, S, pad);
      pad_to(in, T, pad);
      pad_to(out, T, -1);
      append(batch.src, src);
      append(batch.tgt_in, in);
      append(batch.targets, out);
    }
    return batch;
  }
  if (kind == TaskKind::Seq2Seq) {  // decoder-only: source <SOS> target <EOS>, loss on the target
    const int sos = needed(sp.sos, "<SOS>"), eos = needed(sp.eos, "<EOS>");
    std::size_t T = 1;
    for (const Example* e : examples) T = std::max(T, e->src.size() + e->tgt.size() + 1);
    batch.tgt_len = static_cast<int>(T);
    for (const Example* e : examples) {
      std::vector<int> seq = e->src;
      seq.push_back(sos);
      seq.insert(seq.end(), e->tgt.begin(), e->tgt.end());
      seq.push_back(eos);
      std::vector<int> in(seq.begin(), seq.end() - 1), out(seq.begin() + 1, seq.end());
      for (std::size_t i = 0; i + 1 < e->src.size() + 1; ++i) out[i] = -1;  // source positions
      pad_to(in, T, pad);
      pad_to(out, T, -1);
      append(batch.tgt_in, in);
      append(batch.targets, out);
    }
    return batch;
  }
  if (kind == TaskKind::Text && c.arch == Arch::DecoderOnly) {  // next token
    std::size_t T = 1;
    for (const Example* e : examples) T = std::max(T, e->src.size());
    batch.tgt_len = static_cast<int>(T);
    for (const Example* e : examples) {
      std::vector<int> in = e->src, out(e->src.begin() + std::min<std::size_t>(1, e->src.size()), e->src.end());
      pad_to(in, T, pad);
      pad_to(out, T, -1);
      append(batch.tgt_in, in);
      append(batch.targets, out);
    }
    return batch;
  }
  // A sentence on an encoder: classify, tag, or masked tokens (text; nothing masked here).
  const bool cls = kind == TaskKind::Classify || c.head == HeadKind::Cls;
  const bool pooled = c.head == HeadKind::Cls || c.head == HeadKind::Mean;
  const int prefix = cls ? 1 : 0;
  const int cls_id = cls ? needed(sp.cls, "<CLS>") : -1;
  std::size_t S = 1;
  for (const Example* e : examples) S = std::max(S, e->src.size() + prefix);
  batch.src_len = static_cast<int>(S);
  for (const Example* e : examples) {
    std::vector<int> src;
    if (prefix) src.push_back(cls_id);
    src.insert(src.end(), e->src.begin(), e->src.end());
    pad_to(src, S, pad);
    append(batch.src, src);
    if (pooled) {
      batch.targets.push_back(e->label);
    } else {
      std::vector<int> tags = e->tags;
      pad_to(tags, S, -1);
      append(batch.targets, tags);
    }
  }
  return batch;
}

}  // namespace tp
