// [fixture] Every PyTorch fixture (native_tests/data/fixtures, made by tools/make_fixtures.py
// from the float64 reference in tools/reference_model.py): the same weights and inputs must give
// the same logits (relative error ≤ 1e-5), loss (≤ 1e-6) and every parameter gradient (≤ 1e-4).
//
// Errors are norm-wise, ‖ours − ref‖ / ‖ref‖. A gradient that is exactly zero in exact arithmetic
// (every k.bias without RoPE: softmax ignores a constant per row) is compared against 1% of the
// model's mean gradient norm instead, since its f32 value is rounding noise.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "core/json.h"
#include "io/checkpoint.h"
#include "io/safetensors.h"
#include "model/transformer.h"
#include "model_util.h"

using namespace tp;

namespace {

std::vector<int> as_ids(const std::vector<float>& v) {
  std::vector<int> out;
  for (float f : v) out.push_back(static_cast<int>(std::lround(f)));
  return out;
}

double norm(const std::vector<float>& v) {
  double s = 0.0;
  for (float x : v) s += static_cast<double>(x) * x;
  return std::sqrt(s);
}

double diff_norm(const float* a, const std::vector<float>& b) {
  double s = 0.0;
  for (std::size_t i = 0; i < b.size(); ++i)
    s += (static_cast<double>(a[i]) - b[i]) * (static_cast<double>(a[i]) - b[i]);
  return std::sqrt(s);
}

struct Worst {
  double value = 0.0;
  std::string where;
  void update(double v, const std::string& w) {
    if (v > value) {
      value = v;
      where = w;
    }
  }
};

}  // namespace

TEST_CASE("every PyTorch fixture matches: logits, loss and all gradients", "[fixture]") {
  const std::filesystem::path dir = std::filesystem::path(TP_TEST_DATA_DIR) / "fixtures";
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".safetensors") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 12);
  Worst logits_worst, loss_worst, grad_worst;
  for (const auto& path : files) {
    const std::string name = path.stem().string();
    INFO("fixture " << name);
    const std::string bytes = read_file(path.string());
    const SafetensorsView file(bytes);
    const ModelConfig config = ModelConfig::from_json(json::parse(*file.find_metadata("config")));
    const float smoothing = std::stof(*file.find_metadata("label_smoothing"));
    Transformer model(config, 0);
    ParameterSet& params = model.params();
    for (const ParamInfo& info : params.infos()) {
      const std::vector<float> w = file.float_data("param." + info.name);
      REQUIRE(w.size() == info.size);
      std::copy(w.begin(), w.end(), params.value(params.index_of(info.name)));
    }
    Batch batch;
    batch.pad_id = test::kPad;  // the fixtures' <PAD> (tools/make_fixtures.py)
    const std::vector<float> targets = file.float_data("input.targets");
    if (config.arch == Arch::EncoderDecoder) {
      const SafetensorsEntry& src = file.at("input.src");
      const SafetensorsEntry& dec = file.at("input.dec_in");
      batch.size = static_cast<int>(src.shape[0]);
      batch.src_len = static_cast<int>(src.shape[1]);
      batch.tgt_len = static_cast<int>(dec.shape[1]);
      batch.src = as_ids(file.float_data("input.src"));
      batch.tgt_in = as_ids(file.float_data("input.dec_in"));
    } else {
      const SafetensorsEntry& ids = file.at("input.ids");
      batch.size = static_cast<int>(ids.shape[0]);
      const int T = static_cast<int>(ids.shape[1]);
      if (config.arch == Arch::EncoderOnly) {
        batch.src_len = T;
        batch.src = as_ids(file.float_data("input.ids"));
      } else {
        batch.tgt_len = T;
        batch.tgt_in = as_ids(file.float_data("input.ids"));
      }
    }
    batch.targets = as_ids(targets);

    params.ensure_training_state();
    params.zero_grad();
    const StepStats stats = model.forward(batch, true, nullptr, smoothing);
    model.backward();

    const std::vector<float> ref_logits = file.float_data("output.logits");
    REQUIRE(static_cast<std::size_t>(model.logit_rows()) * config.output_size() == ref_logits.size());
    const double logits_err = diff_norm(model.logits(), ref_logits) / norm(ref_logits);
    CHECK(logits_err <= 1e-5);
    logits_worst.update(logits_err, name);
    const double ref_loss = file.float_data("output.loss")[0];
    const double loss_err = std::fabs(stats.loss - ref_loss) / std::fabs(ref_loss);
    CHECK(loss_err <= 1e-6);
    loss_worst.update(loss_err, name);

    double mean_grad_norm = 0.0;
    for (const ParamInfo& info : params.infos()) mean_grad_norm += norm(file.float_data("grad." + info.name));
    mean_grad_norm /= params.count();
    for (const ParamInfo& info : params.infos()) {
      const std::vector<float> ref = file.float_data("grad." + info.name);
      const double err =
          diff_norm(params.grad(params.index_of(info.name)), ref) / std::max(norm(ref), 1e-2 * mean_grad_norm);
      INFO("gradient of " << info.name << ": error " << err);
      CHECK(err <= 1e-4);
      grad_worst.update(err, name + ": " + info.name);
    }
  }
  WARN("worst logits error " << logits_worst.value << " (" << logits_worst.where << "), loss " << loss_worst.value
                             << " (" << loss_worst.where << "), gradient " << grad_worst.value << " ("
                             << grad_worst.where << ")");
}
