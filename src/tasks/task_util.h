// Parsing of the task data files (tab-separated rows, word/TAG sentences), shared by the
// built-in tasks and the user's own data.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tp {

// Rows of exactly `columns` tab-separated fields; '#' lines and blank lines are skipped.
// tp::Error names the file and line of a malformed row.
std::vector<std::vector<std::string>> parse_tsv(std::string_view text, int columns, const std::string& file);

// Sentences of "word/TAG" tokens; tags are indices into `tag_names`.
std::vector<std::vector<std::pair<std::string, int>>> parse_tagged(std::string_view text,
                                                                   const std::vector<std::string>& tag_names,
                                                                   const std::string& file);

}  // namespace tp
