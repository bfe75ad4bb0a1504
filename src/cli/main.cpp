// tp — the Transformer Playground command line: train, generate, inspect, tokenize, tasks.
//
// Every error a user can cause (bad options, unreadable or malformed files, impossible configs)
// ends as one line on stderr — one JSON object when --json was given — and a non-zero exit
// status: 2 for a usage error (the arguments), 1 for anything found while running (the data, a
// file, memory). Nothing here aborts or prints a trace. `tp train` also ends with 128 + the
// signal's number when Ctrl-C or SIGTERM stopped it (after saving; cli/interrupt.h).
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "cli/args.h"
#include "cli/commands.h"
#include "core/error.h"
#include "core/json.h"
#include "core/text_escape.h"

namespace {

const char* kUsage =
    "tp — Transformer Playground " TP_VERSION
    "\n"
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
    "`tp <command> --help` shows a command's options. Every command takes --json (its output as\n"
    "JSON on stdout, and errors as a JSON object {\"error\", \"command\", \"status\"} on stderr); `-`\n"
    "for a file or text reads standard input; `--` ends the options.\n"
    "Exit status: 0 done, 1 an error while running (data, files, memory), 2 a usage error,\n"
    "130 (SIGTERM: 143) a training run stopped by Ctrl-C, after saving its model.\n";

constexpr int kUsageStatus = 2;

int report(const std::string& command, bool json, int status, const std::string& message) {
  if (json) {
    tp::json::Value v = tp::json::Value::object();
    v.set("error", message);
    v.set("command", command);
    v.set("status", status);
    std::fprintf(stderr, "%s\n", v.dump().c_str());
  } else {
    // Quoted file text is escaped already; this catches any control character that was not.
    std::fprintf(stderr, "tp%s%s: error: %s\n", command.empty() ? "" : " ", command.c_str(),
                 tp::escape_controls(message, false).c_str());
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0 ||
      std::strcmp(argv[1], "help") == 0) {
    std::fputs(kUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? kUsageStatus : 0;
  }
  if (std::strcmp(argv[1], "--version") == 0) {
    std::printf("%s\n", TP_VERSION);
    return 0;
  }
  const std::string command = argv[1];
  const bool json = tp::cli::wants_json(argc, argv);
  try {
    if (command == "train") return tp::cli::cmd_train(argc, argv);
    if (command == "generate") return tp::cli::cmd_generate(argc, argv);
    if (command == "inspect") return tp::cli::cmd_inspect(argc, argv);
    if (command == "tokenize") return tp::cli::cmd_tokenize(argc, argv);
    if (command == "tasks") return tp::cli::cmd_tasks(argc, argv);
    return report("", json, kUsageStatus,
                  "unknown command '" + command + "'; commands: train, generate, inspect, tokenize, tasks (tp --help)");
  } catch (const tp::cli::UsageError& e) {
    return report(command, json, kUsageStatus, e.what());
  } catch (const tp::Error& e) {
    return report(command, json, 1, e.what());
  } catch (const std::bad_alloc&) {
    return report(command, json, 1, "out of memory; try a smaller model or batch");
  } catch (const std::exception& e) {
    return report(command, json, 1, e.what());
  }
}
