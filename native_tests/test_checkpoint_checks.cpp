// [checkpoint] What loading promises beyond the file's structure (io/checkpoint_checks.h):
// weights that are NaN or infinite are refused unless asked for, metadata keys the loader does
// not read come back as warnings (with the key a damaged one nearly spells), and a checkpoint's
// unknown task name is a checkpoint error.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "core/error.h"
#include "io/checkpoint.h"
#include "io/safetensors.h"
#include "model_util.h"
#include "tasks/task.h"

using namespace tp;

namespace {

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  FAIL("expected a tp::Error");
  return {};
}

// The checkpoint of `model` with `edit` applied to its metadata before writing.
std::string with_metadata(const Transformer& model, const std::function<void(SafetensorsMetadata&)>& edit) {
  const SafetensorsView view(save_checkpoint(model, nullptr, "copy"));
  SafetensorsMetadata metadata = view.metadata();
  edit(metadata);
  std::vector<SafetensorsTensor> tensors;
  for (int i = 0; i < model.params().count(); ++i) {
    const ParamInfo& info = model.params().info(i);
    tensors.push_back({info.name, std::vector<std::int64_t>(info.shape.dims, info.shape.dims + info.shape.ndim),
                       model.params().value(i)});
  }
  return write_safetensors(tensors, metadata);
}

}  // namespace

TEST_CASE("weights that are not finite are refused unless allowed, and then reported", "[checkpoint]") {
  const ModelConfig config = test::small_config(Arch::DecoderOnly);
  Transformer model(config, 1);
  const std::string good = save_checkpoint(model, nullptr, "");
  CHECK(load_checkpoint(good).warnings.empty());

  const int last = model.params().count() - 1;
  model.params().value(last)[3] = std::numeric_limits<float>::infinity();
  model.params().value(last)[5] = std::nanf("");
  model.params().value(0)[1] = -std::numeric_limits<float>::infinity();
  const std::string broken = save_checkpoint(model, nullptr, "");
  const std::string m = message_of([&] { load_checkpoint(broken); });
  CHECK_THAT(m, Catch::StartsWith("checkpoint: tensor '" + model.params().info(0).name +
                                  "' holds 1 value that is not finite (at index 1: -inf), and 1 "
                                  "more tensor holds some too"));
  CHECK_THAT(m, Catch::Contains("to load it anyway, to inspect it, set allow_non_finite"));

  LoadOptions allow;
  allow.allow_non_finite = true;
  const LoadedCheckpoint loaded = load_checkpoint(broken, allow);
  REQUIRE(loaded.warnings.size() == 1);
  CHECK_THAT(loaded.warnings[0], Catch::Contains("loaded because allow_non_finite is set"));
  CHECK(std::isnan(loaded.model->params().value(last)[5]));
  CHECK(std::isinf(loaded.model->params().value(last)[3]));
  // A good file still loads after the refusal, with nothing left over.
  CHECK(load_checkpoint(good).warnings.empty());
}

TEST_CASE("metadata keys the loader does not read are warnings, naming the key they nearly are", "[checkpoint]") {
  Transformer model(test::small_config(Arch::EncoderDecoder), 1);
  const std::string file = with_metadata(model, [](SafetensorsMetadata& m) {
    m.emplace_back("tokenizr", "{}");
    m.emplace_back("description", "a tool's own note");
    m.emplace_back("ta\x01k", "x");
  });
  const LoadedCheckpoint loaded = load_checkpoint(file);
  REQUIRE(loaded.warnings.size() == 3);
  CHECK(loaded.warnings[0] ==
        "checkpoint: metadata key 'tokenizr' is not one this version reads, so it was ignored "
        "(did you mean 'tokenizer'? the file may be damaged); known keys: format, "
        "format_version, config, tokenizer, task");
  CHECK_THAT(loaded.warnings[1], Catch::StartsWith("checkpoint: metadata key 'description' is not one this version "
                                                   "reads, so it was ignored; known keys:"));
  CHECK_THAT(loaded.warnings[2], Catch::StartsWith("checkpoint: metadata key 'ta\\x01k' is not one this version reads, "
                                                   "so it was ignored (did you mean 'task'?"));
  CHECK(loaded.task == "copy");
  CHECK(loaded.tokenizer == nullptr);
}

TEST_CASE("a checkpoint's task must be one this version knows, said as a checkpoint error", "[checkpoint]") {
  CHECK(checkpoint_task_kind("qa-toy") == TaskKind::Seq2Seq);
  CHECK(checkpoint_task_kind("pairs") == TaskKind::Seq2Seq);
  CHECK(checkpoint_task_kind("text") == TaskKind::Text);
  CHECK_THAT(message_of([] { checkpoint_task_kind("qa-tox"); }),
             Catch::StartsWith("checkpoint: metadata 'task' is not a task this version knows: "
                               "there is no task named 'qa-tox'"));
}
