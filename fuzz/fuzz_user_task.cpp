// libFuzzer harness: the user's own data as a task, then one training step and an evaluation,
// the way `tp train --task text|pairs --data FILE` and tp.task({ text }) / tp.task({ pairs })
// reach it (make_text_task with each tokenizer kind; parse_tsv + make_pairs_task).
//
// Input: the file's bytes, with the task kind taken from the last byte (FuzzedDataProvider
// reads integers from the end), so any text or TSV file is a seed. A refused file is fine. An
// accepted one must train: the task's own default model (made small here, which changes no
// length or vocabulary) must be compatible with it, and a step and an evaluation must give a
// finite loss with batches cut from whatever lines, lengths and characters the file holds.
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "fuzz_common.h"
#include "model/transformer.h"
#include "tasks/task.h"
#include "tasks/task_util.h"
#include "train/trainer.h"

namespace {

std::unique_ptr<tp::Task> task_from(FuzzedDataProvider& in) {
  const int kind = in.ConsumeIntegralInRange<int>(0, 4);
  const std::string data = in.ConsumeRemainingBytesAsString();
  if (kind == 4) {
    std::vector<std::pair<std::string, std::string>> pairs;
    for (const auto& row : tp::parse_tsv(data, 2, "pairs.tsv")) pairs.emplace_back(row[0], row[1]);
    return tp::make_pairs_task(pairs);
  }
  tp::TokenizerOptions options;
  options.kind = static_cast<tp::TokenizerKind>(kind);
  if (options.kind == tp::TokenizerKind::Bpe) options.vocab_size = 300;
  return tp::make_text_task(data, options);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  tp::fuzz::run([&] {
    const std::unique_ptr<tp::Task> task = task_from(in);
    tp::ModelConfig config = task->defaults;
    config.d_model = 8;
    config.n_heads = 2;
    config.n_kv_heads = 0;
    config.d_ff = 16;
    config.n_layers = 1;
    try {
      task->check_compatible(config);
    } catch (const tp::Error& e) {
      tp::fuzz::finding("a user task does not fit its own default model", e.what());
    }
    tp::Transformer model(config, 1);
    tp::TrainOptions options = task->train;
    options.batch_size = 2;
    options.eval_every = 1;
    tp::Trainer trainer(model, *task, options);
    const tp::StepReport report = trainer.run(1);
    FUZZ_EXPECT(report.evaluated);
    FUZZ_EXPECT(std::isfinite(report.loss) && std::isfinite(report.val_loss));
  });
  return 0;
}
