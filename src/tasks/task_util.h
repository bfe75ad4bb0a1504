// What the built-in tasks and the user's own data share: building a task and its default model,
// and parsing the data files (tab-separated rows, word/TAG sentences).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tasks/task.h"

namespace tp {

// A task with its identity filled in; the caller adds data, tokenizer and defaults.
std::unique_ptr<Task> new_task(std::string name, std::string description, TaskKind kind, std::string metric,
                               std::string source);

// Rows of exactly `columns` tab-separated fields; '#' lines and blank lines are skipped.
// tp::Error names the file and line of a malformed row.
std::vector<std::vector<std::string>> parse_tsv(std::string_view text, int columns, const std::string& file);

// Sentences of "word/TAG" tokens; tags are indices into `tag_names`.
std::vector<std::vector<std::pair<std::string, int>>> parse_tagged(std::string_view text,
                                                                   const std::vector<std::string>& tag_names,
                                                                   const std::string& file);

}  // namespace tp
