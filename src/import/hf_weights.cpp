// model.safetensors of a Hugging Face-style checkpoint -> the parameters of our Transformer.
//
// Each of our tensors comes from one tensor of the file, copied as it is, transposed (GPT-2's
// Conv1D stores weights [in, out], ours are [out, in] as nn.Linear), or cut from GPT-2's fused
// c_attn ([D, 3D]: the q, k and v columns side by side). The file must hold exactly the tensors
// the config implies — plus the buffers Hugging Face saves that are not weights (GPT-2's causal
// masks attn.bias / attn.masked_bias, Llama's rotary_emb.inv_freq) and a tied lm_head.weight —
// with the shapes the config implies: anything else is an error naming the tensor, so no weight
// is ever silently dropped. F32, F16 and BF16 tensors are read (widened exactly to f32).
#include <set>

#include "core/error.h"
#include "core/text_escape.h"
#include "import/import_internal.h"
#include "io/safetensors.h"

namespace tp::import {
namespace {

enum class Op { Copy, Transpose, SliceTranspose, SliceBias };

struct Source {
  std::string name;
  Op op = Op::Copy;
  int part = 0;  // which of q, k, v for the slice ops
};

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Where our tensor `ours` comes from in a GPT-2 file whose names start with `p`.
Source gpt2_source(const std::string& ours, const std::string& p) {
  if (ours == "tok_emb.weight") return {p + "wte.weight"};
  if (ours == "pos_emb.weight") return {p + "wpe.weight"};
  if (ours == "lm_head.weight") return {"lm_head.weight"};  // untied (rare for GPT-2)
  if (ours == "dec.final_norm.weight") return {p + "ln_f.weight"};
  if (ours == "dec.final_norm.bias") return {p + "ln_f.bias"};
  // dec.<l>.<rest>
  const std::size_t dot = ours.find('.', 4);
  const std::string h = p + "h." + ours.substr(4, dot - 4) + ".", rest = ours.substr(dot + 1);
  static const std::pair<const char*, const char*> kNorms[] = {{"norm1.", "ln_1."}, {"norm2.", "ln_2."}};
  for (const auto& [from, to] : kNorms) {
    if (rest.rfind(from, 0) == 0) return {h + to + rest.substr(std::string(from).size())};
  }
  const bool weight = ends_with(rest, ".weight");
  const std::string kind = weight ? "weight" : "bias";
  const char* const qkv[] = {"self_attn.q.", "self_attn.k.", "self_attn.v."};
  for (int part = 0; part < 3; ++part) {
    if (rest.rfind(qkv[part], 0) == 0)
      return {h + "attn.c_attn." + kind, weight ? Op::SliceTranspose : Op::SliceBias, part};
  }
  const Op op = weight ? Op::Transpose : Op::Copy;
  if (rest.rfind("self_attn.o.", 0) == 0) return {h + "attn.c_proj." + kind, op};
  if (rest.rfind("ffn.up.", 0) == 0) return {h + "mlp.c_fc." + kind, op};
  if (rest.rfind("ffn.down.", 0) == 0) return {h + "mlp.c_proj." + kind, op};
  TP_FAIL("no GPT-2 tensor maps to ", quote(ours));
}

Source llama_source(const std::string& ours) {
  if (ours == "tok_emb.weight") return {"model.embed_tokens.weight"};
  if (ours == "dec.final_norm.weight") return {"model.norm.weight"};
  if (ours == "lm_head.weight") return {"lm_head.weight"};
  const std::size_t dot = ours.find('.', 4);
  const std::string l = "model.layers." + ours.substr(4, dot - 4) + ".", rest = ours.substr(dot + 1);
  static const std::pair<const char*, const char*> kNames[] = {
      {"norm1.weight", "input_layernorm.weight"},        {"norm2.weight", "post_attention_layernorm.weight"},
      {"self_attn.q.weight", "self_attn.q_proj.weight"}, {"self_attn.k.weight", "self_attn.k_proj.weight"},
      {"self_attn.v.weight", "self_attn.v_proj.weight"}, {"self_attn.o.weight", "self_attn.o_proj.weight"},
      {"ffn.gate.weight", "mlp.gate_proj.weight"},       {"ffn.up.weight", "mlp.up_proj.weight"},
      {"ffn.down.weight", "mlp.down_proj.weight"}};
  for (const auto& [from, to] : kNames) {
    if (rest == from) return {l + to};
  }
  TP_FAIL("no Llama tensor maps to ", quote(ours));
}

// Tensors a Hugging Face file may hold that are not weights of the model.
bool is_buffer(const HfModel& model, const std::string& name) {
  if (model.family == HfFamily::Gpt2) return ends_with(name, ".attn.bias") || ends_with(name, ".attn.masked_bias");
  return ends_with(name, ".rotary_emb.inv_freq");
}

void check_shape(const SafetensorsEntry& e, const std::vector<std::int64_t>& want, const std::string& ours) {
  TP_CHECK(e.shape == want, "model.safetensors: tensor ", quote(e.name), " has shape ", shape_string(e.shape), " but ",
           "config.json implies ", shape_string(want), " (for ", ours, ")");
}

// The shape our tensor needs its source to have in the file.
std::vector<std::int64_t> source_shape(const Source& src, const ParamInfo& info, int D) {
  const int rows = info.shape[0], cols = info.shape.ndim > 1 ? info.shape[1] : 1;
  switch (src.op) {
    case Op::Copy:
      return info.shape.ndim > 1 ? std::vector<std::int64_t>{rows, cols} : std::vector<std::int64_t>{rows};
    case Op::Transpose:
      return {cols, rows};
    case Op::SliceTranspose:
      return {D, 3LL * D};
    case Op::SliceBias:
      return {3LL * D};
  }
  return {};
}

}  // namespace

HfWeights check_hf_weights(const HfModel& model, std::string_view safetensors, const LoadOptions& options,
                           std::vector<std::string>& warnings) {
  check_import_file_size("model.safetensors", safetensors.size());
  HfWeights out;
  out.layout = Transformer::parameter_layout(model.config);
  const int L = model.config.n_layers;
  // Every tensor maps to one of ours, is a buffer (GPT-2: two per layer, Llama: one) or the tied
  // head; a header listing more is refused at the first one too many.
  SafetensorsLimits limits;
  limits.max_tensors = out.layout.size() + (model.family == HfFamily::Gpt2 ? 2 * L : L) + 1;
  limits.why = str_cat("config.json implies ", out.layout.size(), " weight tensors, and at most ",
                       limits.max_tensors - out.layout.size(), " more (buffers, a tied head)");
  try {
    out.view = std::make_unique<SafetensorsView>(safetensors, limits);
  } catch (const Error& e) {
    const std::string what = e.what();  // "safetensors: ..."
    TP_FAIL("model.safetensors: ", what.rfind("safetensors: ", 0) == 0 ? what.substr(13) : what);
  }
  const SafetensorsView& view = *out.view;
  std::string prefix;
  if (model.family == HfFamily::Gpt2 && view.find("wte.weight") == nullptr && view.find("transformer.wte.weight")) {
    prefix = "transformer.";
  }
  const int D = model.config.d_model;
  std::set<std::string> used;
  NonFiniteSummary non_finite;
  for (const ParamInfo& info : out.layout) {
    const Source src = model.family == HfFamily::Gpt2 ? gpt2_source(info.name, prefix) : llama_source(info.name);
    const SafetensorsEntry* e = view.find(src.name);
    TP_CHECK(e != nullptr, "model.safetensors has no tensor ", quote(src.name), ", which config.json implies (for ",
             info.name, ")");
    TP_CHECK(e->dtype == "F32" || e->dtype == "F16" || e->dtype == "BF16", "model.safetensors: tensor ", quote(e->name),
             " has dtype ", e->dtype, "; weights must be F32, F16 or BF16");
    check_shape(*e, source_shape(src, info, D), info.name);
    if (used.insert(src.name).second) {  // c_attn feeds three of ours; scan it once
      std::size_t at = 0;
      float first = 0.0f;
      const std::size_t bad = view.count_non_finite(*e, at, first);
      non_finite.add(e->name, bad, at, first);
    }
    out.sources.push_back(WeightSource{e, static_cast<int>(src.op), src.part});
  }
  for (const SafetensorsEntry& e : view.entries()) {
    if (used.count(e.name) || is_buffer(model, e.name)) continue;
    const bool tied_head = model.config.tie_embeddings && (e.name == "lm_head.weight");
    TP_CHECK(tied_head, "model.safetensors has the tensor ", quote(e.name), ", which no part of a ",
             model.family == HfFamily::Gpt2 ? "GPT-2" : "Llama", " model with this config.json uses",
             e.name == "lm_head.weight" ? " (an untied head needs tie_word_embeddings = false)" : "",
             "; see docs/FORMAT.md for the tensors each family has");
  }
  report_non_finite("model.safetensors", non_finite, options, warnings);
  return out;
}

void copy_hf_weights(const HfModel& model, const HfWeights& weights, Transformer& out) {
  ParameterSet& params = out.params();
  TP_ASSERT(params.count() == static_cast<int>(weights.sources.size()));
  const SafetensorsView& view = *weights.view;
  const int D = model.config.d_model;
  std::vector<float> scratch;
  for (int i = 0; i < params.count(); ++i) {
    const ParamInfo& info = params.info(i);
    const WeightSource& src = weights.sources[i];
    const SafetensorsEntry& e = *src.entry;
    const int rows = info.shape[0], cols = info.shape.ndim > 1 ? info.shape[1] : 1;
    float* dst = params.value(i);
    switch (static_cast<Op>(src.op)) {
      case Op::Copy:
        view.copy_floats(e, dst);
        break;
      case Op::Transpose:  // file [cols, rows] -> ours [rows, cols]
        scratch.resize(static_cast<std::size_t>(e.numel()));
        view.copy_floats(e, scratch.data());
        for (int r = 0; r < rows; ++r) {
          for (int c = 0; c < cols; ++c)
            dst[static_cast<std::size_t>(r) * cols + c] = scratch[static_cast<std::size_t>(c) * rows + r];
        }
        break;
      case Op::SliceTranspose:  // c_attn [D, 3D]: ours[o][i] = W[i][part·D + o]
        scratch.resize(static_cast<std::size_t>(e.numel()));
        view.copy_floats(e, scratch.data());
        for (int o = 0; o < rows; ++o) {
          for (int c = 0; c < cols; ++c)
            dst[static_cast<std::size_t>(o) * cols + c] =
                scratch[static_cast<std::size_t>(c) * 3 * D + src.part * D + o];
        }
        break;
      case Op::SliceBias:
        scratch.resize(3 * static_cast<std::size_t>(D));
        view.copy_floats(e, scratch.data());
        std::copy(scratch.begin() + static_cast<std::ptrdiff_t>(src.part) * D, scratch.begin() + (src.part + 1) * D,
                  dst);
        break;
    }
  }
}

}  // namespace tp::import
