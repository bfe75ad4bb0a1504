// Import benchmark, native: a Hugging Face-style folder (bench/import/prepare.mjs writes the
// benchmark's random ones under bench/results/import) read from disk and imported, then greedy
// generation with the KV cache. Prints load seconds (reading the files + building the model),
// peak resident memory (native; the wasm heap's size under Node) and ms per generated token.
//   tp_bench import --model DIR [--reps N (tokens, default 32)] [--impl LABEL]
#include <cstdio>
#include <filesystem>

#include "bench/bench_util.h"
#include "core/error.h"
#include "generate/generator.h"
#include "import/import.h"

#ifdef __EMSCRIPTEN__
#include <emscripten/heap.h>
#else
#include <sys/resource.h>
#endif

namespace tp::bench {

namespace {

double peak_mb() {
#ifdef __EMSCRIPTEN__
  return static_cast<double>(emscripten_get_heap_size()) / (1 << 20);  // wasm memory never shrinks
#else
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // kB on Linux
#endif
}

}  // namespace

int run_import(const Options& options) {
  const std::string impl = options.impl.empty() ? default_impl() : options.impl;
  TP_CHECK(!options.model.empty(), "tp_bench import needs --model DIR");
  const double start = now_seconds();
  std::vector<std::string> names, contents;
  for (const auto& entry : std::filesystem::directory_iterator(options.model)) {
    names.push_back(entry.path().filename().string());
    contents.push_back(read_file(entry.path().string()));
  }
  std::vector<ModelFile> files;
  for (std::size_t i = 0; i < names.size(); ++i) files.push_back({names[i], contents[i]});
  LoadedCheckpoint loaded = import_model(files);
  contents.clear();  // the file bytes are not needed once the model holds the weights
  const double load_s = now_seconds() - start;
  GenerateOptions g;
  g.max_new_tokens = options.reps > 0 ? options.reps : 32;
  const std::vector<int> prompt = loaded.tokenizer->encode("The quick brown fox jumps over the lazy dog").ids;
  const GenerateResult r = generate(*loaded.model, prompt, g);
  std::printf(
      "{\"bench\":\"import\",\"impl\":\"%s\",\"parameters\":%lld,\"load_s\":%.3f,\"peak_mb\":%.1f,"
      "\"tokens\":%zu,\"ms_per_token\":%.3f}\n",
      impl.c_str(), static_cast<long long>(loaded.model->config().parameter_count()), load_s, peak_mb(), r.ids.size(),
      r.ms_per_token);
  return 0;
}

}  // namespace tp::bench
