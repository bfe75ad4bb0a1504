// Matching trace names against their patterns; see trace_names.h.
#include "model/trace_names.h"

#include <cctype>

namespace tp {

namespace {

// Whether `name` from `pos` starts with what placeholder `key` allows; advances `pos`.
bool take(const std::string& key, const std::string& name, std::size_t& pos) {
  const auto word = [&](const char* w) {
    const std::string s = w;
    if (name.compare(pos, s.size(), s) != 0) return false;
    pos += s.size();
    return true;
  };
  if (key == "stack") return word("enc") || word("dec");
  if (key == "attn") return word("self_attn") || word("cross_attn");
  if (key == "layer") {
    const std::size_t start = pos;
    while (pos < name.size() && std::isdigit(static_cast<unsigned char>(name[pos]))) ++pos;
    return pos > start && (pos - start == 1 || name[start] != '0');
  }
  return false;
}

bool matches(const char* pattern, const std::string& name) {
  const std::string p = pattern;
  std::size_t i = 0, pos = 0;
  while (i < p.size()) {
    if (p[i] == '{') {
      const std::size_t close = p.find('}', i);
      if (!take(p.substr(i + 1, close - i - 1), name, pos)) return false;
      i = close + 1;
    } else {
      if (pos >= name.size() || name[pos] != p[i]) return false;
      ++pos;
      ++i;
    }
  }
  return pos == name.size();
}

}  // namespace

const TraceName* find_trace_name(const std::string& name) {
  for (const TraceName& t : kTraceNames) {
    if (matches(t.pattern, name)) return &t;
  }
  return nullptr;
}

json::Value describe_trace_names() {
  json::Value out = json::Value::array();
  for (const TraceName& t : kTraceNames) {
    json::Value e = json::Value::object();
    e.set("pattern", t.pattern);
    e.set("shape", t.shape);
    e.set("doc", t.doc);
    out.push(std::move(e));
  }
  return out;
}

}  // namespace tp
