// The `tp` subcommands. Each returns the process exit status and reports bad input by throwing:
// UsageError (cli/args.h) for a mistake in the arguments, which main() turns into status 2, and
// tp::Error for a problem found while running (status 1); main() prints either as one line, or as
// one JSON object on stderr when --json was given.
#pragma once

namespace tp::cli {

int cmd_train(int argc, char** argv);
int cmd_generate(int argc, char** argv);
int cmd_inspect(int argc, char** argv);
int cmd_tokenize(int argc, char** argv);
int cmd_tasks(int argc, char** argv);

}  // namespace tp::cli
