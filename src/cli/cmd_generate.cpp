// `tp generate`: load a checkpoint, encode the prompt with its tokenizer, generate, print.
#include <cstdio>
#include <cstring>

#include "cli/args.h"
#include "cli/commands.h"
#include "core/error.h"
#include "generate/generator.h"
#include "io/checkpoint.h"
#include "tasks/task.h"

namespace tp::cli {

namespace {

const char* kHelp =
    "usage: tp generate --model FILE --prompt TEXT [options]\n"
    "\n"
    "Generates from a trained model. For an encoder-decoder model the prompt is the source and\n"
    "the output is the decoded target; for a decoder-only language model the output is the prompt\n"
    "and its continuation.\n"
    "\n"
    "  --model FILE        a checkpoint written by `tp train --out`\n"
    "  --prompt TEXT       the input text\n"
    "  --max-tokens N      stop after N new tokens (default 32)\n"
    "  --temperature X     0 = greedy (default), higher = more random\n"
    "  --top-k N           sample only from the N most likely tokens\n"
    "  --top-p X           sample from the smallest set of tokens whose probability reaches X\n"
    "  --beam N            beam search of width N\n"
    "  --length-penalty X  beam scores are log p / length^X (default 1)\n"
    "  --seed S            seed for sampling (default 0)\n"
    "  --no-cache          recompute the whole prefix every step instead of using the KV cache\n"
    "  --show-probs        print each step's five most likely next tokens\n";

// Seq2seq tasks run on a decoder-only model as "source <SOS> target".
bool prompt_needs_sos(const LoadedCheckpoint& loaded) {
  if (loaded.model->config().arch != Arch::DecoderOnly || loaded.task.empty()) return false;
  return task_kind(loaded.task) == TaskKind::Seq2Seq;
}

}  // namespace

int cmd_generate(int argc, char** argv) {
  if (wants_help(argc, argv)) {
    std::fputs(kHelp, stdout);
    return 0;
  }
  const Args args(argc, argv, 2,
                  {"model", "prompt", "max-tokens", "temperature", "top-k", "top-p", "beam", "length-penalty", "seed"},
                  {"no-cache", "show-probs"});
  TP_CHECK(args.positional().empty(), "unexpected argument '", args.positional()[0],
           "' (quote a prompt with spaces: --prompt \"how are you\")");
  const std::string path = args.require("model");
  const std::string prompt = args.require("prompt");
  LoadedCheckpoint loaded = load_checkpoint(read_file(path));
  TP_CHECK(loaded.tokenizer != nullptr, "'", path, "' has no tokenizer in its metadata, so text cannot be encoded");
  const Tokenizer& tok = *loaded.tokenizer;
  GenerateOptions options;
  options.max_new_tokens = args.get_int("max-tokens", 32);
  options.sampling.temperature = static_cast<float>(args.get_double("temperature", 0.0));
  options.sampling.top_k = args.get_int("top-k", 0);
  options.sampling.top_p = static_cast<float>(args.get_double("top-p", 1.0));
  options.beam = args.get_int("beam", 1);
  options.length_penalty = static_cast<float>(args.get_double("length-penalty", 1.0));
  options.seed = static_cast<std::uint64_t>(args.get_int("seed", 0));
  options.kv_cache = !args.flag("no-cache");
  options.num_specials = tok.num_specials();
  const bool show = args.flag("show-probs");
  options.top_k_probs = show ? 5 : 0;

  std::vector<int> ids = tok.encode(prompt).ids;
  const bool seq2seq_prompt = prompt_needs_sos(loaded);
  if (seq2seq_prompt) ids.push_back(kSos);
  const GenerateResult result = generate(*loaded.model, ids, options);
  std::vector<int> out = result.ids;
  if (!out.empty() && out.back() == kEos) out.pop_back();
  if (show) {
    for (std::size_t s = 0; s < result.steps.size(); ++s) {
      const GenerateStep& step = result.steps[s];
      std::printf("step %zu: %s  |", s + 1, tok.token_text(step.id).c_str());
      for (const TokenProb& p : step.top) std::printf("  %s %.3f", tok.token_text(p.id).c_str(), p.p);
      std::printf("\n");
    }
  }
  const bool continuation = loaded.model->config().arch == Arch::DecoderOnly && !seq2seq_prompt;
  std::printf("%s%s\n", continuation ? prompt.c_str() : "", tok.decode(out).c_str());
  std::fprintf(stderr, "%zu tokens, %.3f ms/token (%s), stopped: %s\n", result.ids.size(), result.ms_per_token,
               options.kv_cache ? "KV cache" : "no cache", result.stop_reason.c_str());
  return 0;
}

}  // namespace tp::cli
