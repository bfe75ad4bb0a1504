// tp — the Transformer Playground command line: train, generate, inspect, tokenize, tasks.
//
// Every error a user can cause (bad options, unreadable or malformed files, impossible configs)
// ends as one line on stderr and a non-zero exit status; nothing here aborts or prints a trace.
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "cli/commands.h"
#include "core/error.h"

namespace {

const char* kUsage =
    "tp — Transformer Playground " TP_VERSION "\n"
    "\n"
    "usage: tp <command> [options]\n"
    "\n"
    "commands:\n"
    "  train     train a model on a task and save it (a .safetensors checkpoint)\n"
    "  generate  generate text from a saved model\n"
    "  inspect   show a checkpoint's configuration, tensors and tokenizer\n"
    "  tokenize  split text into tokens with ids and spans\n"
    "  tasks     list the built-in tasks\n"
    "\n"
    "`tp <command> --help` shows a command's options.\n";

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0 ||
      std::strcmp(argv[1], "help") == 0) {
    std::fputs(kUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  if (std::strcmp(argv[1], "--version") == 0) {
    std::printf("%s\n", TP_VERSION);
    return 0;
  }
  const std::string command = argv[1];
  try {
    if (command == "train") return tp::cli::cmd_train(argc, argv);
    if (command == "generate") return tp::cli::cmd_generate(argc, argv);
    if (command == "inspect") return tp::cli::cmd_inspect(argc, argv);
    if (command == "tokenize") return tp::cli::cmd_tokenize(argc, argv);
    if (command == "tasks") return tp::cli::cmd_tasks(argc, argv);
    std::fprintf(stderr, "tp: unknown command '%s'; commands: train, generate, inspect, tokenize, tasks (tp --help)\n",
                 command.c_str());
    return 2;
  } catch (const tp::Error& e) {
    std::fprintf(stderr, "tp %s: error: %s\n", command.c_str(), e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "tp %s: error: out of memory; try a smaller model or batch\n", command.c_str());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tp %s: error: %s\n", command.c_str(), e.what());
    return 1;
  }
}
