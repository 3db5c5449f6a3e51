//===- core/Json.h - A small JSON writer ------------------------*- C++ -*-===//
///
/// \file
/// Writes JSON into a string: objects, arrays, strings (escaped), integers,
/// finite doubles, booleans and null. Commas are placed by the writer; the
/// caller decides where lines break (breakLine()), so that profile.json keeps
/// one node per line and stays readable and greppable.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_CORE_JSON_H
#define POMP_RUNTIME_CORE_JSON_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pomp::rt {

/// Builds a JSON text.
class JsonWriter {
public:
  JsonWriter &beginObject();
  JsonWriter &endObject();
  JsonWriter &beginArray();
  JsonWriter &endArray();

  /// The key of the next value in the current object.
  JsonWriter &key(std::string_view Key);

  JsonWriter &value(std::string_view S);
  JsonWriter &value(const char *S) { return value(std::string_view(S)); }
  JsonWriter &value(std::uint64_t N);
  JsonWriter &value(std::int64_t N);
  JsonWriter &value(std::uint32_t N) { return value(static_cast<std::uint64_t>(N)); }
  JsonWriter &value(int N) { return value(static_cast<std::int64_t>(N)); }
  /// Non-finite values are written as null (JSON has no NaN).
  JsonWriter &value(double D);
  JsonWriter &value(bool B);
  JsonWriter &null();

  /// Starts the next element or key on a new line, indented by nesting depth.
  JsonWriter &breakLine();

  /// The text; every object and array must be closed.
  const std::string &text() const { return Out; }

  /// S with JSON string escapes, without quotes.
  static std::string escape(std::string_view S);

private:
  void beforeValue();

  std::string Out;
  /// Per open object/array: whether an element was written already.
  std::vector<bool> HasElement;
  bool AfterKey = false;
  bool PendingBreak = false;
};

} // namespace pomp::rt

#endif // POMP_RUNTIME_CORE_JSON_H
