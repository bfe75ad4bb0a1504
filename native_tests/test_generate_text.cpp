// [generate] generate_text(): the one prompt → answer path of the CLI, the bindings and the
// probes, in each of its cases — an encoder-decoder answering its source, a decoder-only model
// continuing text, a decoder-only model answering a sequence-to-sequence source after <SOS>,
// and an encoder-only classifier, which it refuses.
#include <catch2/catch.hpp>

#include "generate/generate_text.h"
#include "tasks/task.h"
#include "train/trainer.h"

using namespace tp;

namespace {

// `task`'s default model (with `arch`), trained `steps` steps from seed 1.
Transformer trained(const Task& task, int steps, Arch arch) {
  ModelConfig c = task.defaults;
  c.arch = arch;
  if (arch == Arch::DecoderOnly && task.kind == TaskKind::Seq2Seq) c.max_len *= 2;  // "source <SOS> target"
  Transformer model(c, 1);
  TrainOptions o = task.train;
  o.total_steps = steps;
  o.eval_every = 0;
  Trainer trainer(model, task, o);
  trainer.run(steps);
  return model;
}

GenerateOptions greedy(int max_new) {
  GenerateOptions o;
  o.max_new_tokens = max_new;
  return o;
}

}  // namespace

TEST_CASE("generate_text reads the prompt and decodes the answer as each architecture needs", "[generate]") {
  SECTION("encoder-decoder: the prompt is the source, the answer is decoded on its own") {
    const auto task = make_task("qa-toy");
    Transformer model = trained(*task, 600, Arch::EncoderDecoder);
    const Tokenizer& tok = *task->tokenizer;
    const std::vector<int> prompt = tok.encode("how are you").ids;
    const TextGeneration g = generate_text(model, &tok, prompt, PromptRole::Source, greedy(8));
    CHECK(g.prompt_ids == prompt);  // no <SOS> appended: the decoder starts from it
    CHECK(g.text == "i am fine");
    CHECK_FALSE(g.continues_prompt);
    REQUIRE(g.result.ids.back() == tok.specials().eos);                                 // it stopped at <EOS> ...
    CHECK(g.answer == std::vector<int>(g.result.ids.begin(), g.result.ids.end() - 1));  // ... which the answer drops
    CHECK(g.result.stop_reason == "eos");
    // The role changes nothing for an encoder-decoder.
    CHECK(generate_text(model, &tok, prompt, PromptRole::Continue, greedy(8)).text == "i am fine");
  }

  SECTION("decoder-only, a sequence-to-sequence source: \"source <SOS>\", then an answer of its own") {
    const auto task = make_task("qa-toy");
    Transformer model = trained(*task, 600, Arch::DecoderOnly);
    const Tokenizer& tok = *task->tokenizer;
    const std::vector<int> prompt = tok.encode("how are you").ids;
    const TextGeneration g = generate_text(model, &tok, prompt, PromptRole::Source, greedy(8));
    std::vector<int> read = prompt;
    read.push_back(tok.specials().sos);
    CHECK(g.prompt_ids == read);
    CHECK(g.text == "i am fine");
    CHECK_FALSE(g.continues_prompt);
    CHECK(g.answer.size() == 3);
    CHECK(g.result.ids.size() == 4);  // with <EOS>
  }

  SECTION("decoder-only, text to continue: the prompt as it is, the answer decoded after it") {
    const auto task = make_task("lm-char");
    Transformer model = trained(*task, 20, Arch::DecoderOnly);
    const Tokenizer& tok = *task->tokenizer;
    const std::vector<int> prompt = tok.encode("LOVE, n.").ids;
    GenerateOptions o = greedy(12);
    const TextGeneration g = generate_text(model, &tok, prompt, PromptRole::Continue, o);
    CHECK(g.prompt_ids == prompt);
    CHECK(g.continues_prompt);
    CHECK(g.text == tok.decode_continuation(prompt, g.answer));
    CHECK(g.answer.size() == g.result.ids.size() - (g.result.stop_reason == "eos" ? 1 : 0));
    CHECK(g.result.ids.size() <= 12);
    // The same as generate() with the tokenizer's specials, which generate_text() supplies.
    o.specials = tok.specials();
    CHECK(generate(model, prompt, o).ids == g.result.ids);
    // Without a tokenizer: ids only, with the specials given in the options.
    const TextGeneration ids_only = generate_text(model, nullptr, prompt, PromptRole::Continue, o);
    CHECK(ids_only.result.ids == g.result.ids);
    CHECK(ids_only.text.empty());
  }

  SECTION("encoder-only (a classifier): refused, saying what such a model does instead") {
    const auto task = make_task("sentiment");
    Transformer model(task->defaults, 1);
    const std::vector<int> prompt = task->tokenizer->encode("so cute").ids;
    REQUIRE_THROWS_WITH(generate_text(model, task->tokenizer.get(), prompt, PromptRole::Source, greedy(4)),
                        Catch::Contains("generation needs a model with a decoder; this one is encoder-only") &&
                            Catch::Contains("predicts classes or tags"));
  }
}
