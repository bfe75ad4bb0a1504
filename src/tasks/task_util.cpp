// Data file parsing; see task_util.h.
#include "tasks/task_util.h"

#include <algorithm>
#include <iterator>
#include <sstream>

#include "core/error.h"

namespace tp {

namespace {

// Calls fn(line, line_number) for every non-blank, non-comment line.
template <typename Fn>
void for_each_data_line(std::string_view text, Fn fn) {
  std::size_t start = 0;
  int number = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    ++number;
    if (!line.empty() && line[0] != '#') fn(line, number);
    if (end == text.size()) break;
    start = end + 1;
  }
}

}  // namespace

std::unique_ptr<Task> new_task(std::string name, std::string description, TaskKind kind, std::string metric,
                               std::string source) {
  TP_ASSERT(std::any_of(std::begin(kTaskMetrics), std::end(kTaskMetrics), [&](const char* m) { return metric == m; }));
  auto task = std::make_unique<Task>();
  task->name = std::move(name);
  task->description = std::move(description);
  task->kind = kind;
  task->metric = std::move(metric);
  task->source = std::move(source);
  return task;
}

std::vector<std::vector<std::string>> parse_tsv(std::string_view text, int columns, const std::string& file) {
  std::vector<std::vector<std::string>> rows;
  for_each_data_line(text, [&](std::string_view line, int number) {
    std::vector<std::string> fields;
    std::size_t start = 0;
    while (true) {
      const std::size_t tab = line.find('\t', start);
      fields.emplace_back(line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start));
      if (tab == std::string_view::npos) break;
      start = tab + 1;
    }
    TP_CHECK(static_cast<int>(fields.size()) == columns, file, " line ", number, ": expected ", columns,
             " tab-separated fields, found ", fields.size());
    for (const std::string& f : fields) TP_CHECK(!f.empty(), file, " line ", number, ": a field is empty");
    rows.push_back(std::move(fields));
  });
  return rows;
}

std::vector<std::vector<std::pair<std::string, int>>> parse_tagged(std::string_view text,
                                                                   const std::vector<std::string>& tag_names,
                                                                   const std::string& file) {
  std::vector<std::vector<std::pair<std::string, int>>> sentences;
  for_each_data_line(text, [&](std::string_view line, int number) {
    std::vector<std::pair<std::string, int>> sentence;
    std::istringstream words{std::string(line)};
    std::string token;
    while (words >> token) {
      const std::size_t slash = token.rfind('/');
      TP_CHECK(slash != std::string::npos && slash > 0, file, " line ", number, ": token '", token,
               "' is not of the form word/TAG");
      const std::string tag = token.substr(slash + 1);
      int index = -1;
      for (std::size_t i = 0; i < tag_names.size(); ++i) {
        if (tag_names[i] == tag) index = static_cast<int>(i);
      }
      TP_CHECK(index >= 0, file, " line ", number, ": tag '", tag, "' is unknown");
      sentence.emplace_back(token.substr(0, slash), index);
    }
    if (!sentence.empty()) sentences.push_back(std::move(sentence));
  });
  return sentences;
}

}  // namespace tp
