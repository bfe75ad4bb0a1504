// Shared by the commands: the task named by --task (or the user's data), the model config and the
// training options from the task's defaults plus any option given on the command line (the
// options and their names come from the tables in model/config.h and model/train_options.h), and
// file checks.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cli/args.h"
#include "model/config.h"
#include "tasks/task.h"

namespace tp::cli {

// Config fields as options: "d-model", "n-heads", ... (every ModelConfig field but vocab_size,
// which the task's tokenizer decides).
std::vector<std::string> config_option_names();

// --data - reads the data from standard input.
std::unique_ptr<Task> task_from_args(const Args& args, Stdin& in);
ModelConfig config_from_args(const Task& task, const Args& args);
// The task's training options with any training option given on the command line (--lr, --steps, ...).
TrainOptions train_options_from_args(const Task& task, const Args& args);

// tp::Error now, before training, if `path` could not be written when the model is saved.
// Creates nothing: the file appears only when it is saved, complete (write_file).
void check_writable(const std::string& path);

}  // namespace tp::cli
