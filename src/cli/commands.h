// The `tp` subcommands. Each returns the process exit status and reports bad input by throwing
// tp::Error, which main() prints as one line.
#pragma once

namespace tp::cli {

int cmd_train(int argc, char** argv);
int cmd_generate(int argc, char** argv);
int cmd_inspect(int argc, char** argv);
int cmd_tokenize(int argc, char** argv);
int cmd_tasks(int argc, char** argv);

// True when argv (from index 2) asks for help.
bool wants_help(int argc, char** argv);

}  // namespace tp::cli
