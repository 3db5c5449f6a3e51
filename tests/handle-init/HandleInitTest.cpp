//===- HandleInitTest.cpp - Handle initialisation code --------------------===//
///
/// \file
/// The naming contract (file ids, which symbols are init functions) and the
/// exact text of the generated code. That the text compiles warning-free as
/// C89 and C++98..C++20 and binds every handle is checked by the lit tests of
/// this folder. Suite names start with "handleInit" so that
/// `ctest -R handle` selects them.
///
//===----------------------------------------------------------------------===//

#include "pomp/handle-init/HandleInit.h"
#include "pomp/handle-init/Uninstrumented.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace pomp::handleinit {
namespace {

/// The POMP event routines, from the event list itself: when the API grows,
/// this test covers the new names too.
const std::vector<std::string> ApiEventRoutines = {
#define POMP_EVENT(Name, Group, Role, Handle, Levels, Params) "POMP_" #Name,
#include "pomp_events.def"
};

/// pomplib.h's routines that are not events.
const std::vector<std::string> ApiControlRoutines = {
    "POMP_Init",         "POMP_Finalize",          "POMP_On",        "POMP_Off",
    "POMP_Get_handle",   "POMP_Init_Handles",      "POMP_Set_level", "POMP_Get_level",
    "POMP_Error_string", "POMP_Last_error_message"};

constexpr std::size_t HashHexDigits = 16;

std::size_t countLines(std::string_view Text) {
  return static_cast<std::size_t>(std::count(Text.begin(), Text.end(), '\n'));
}

/// A valid file id for tests that are not about ids.
const std::string SampleId = makeFileId("/src/jacobi.c", "");

//===--- File ids ----------------------------------------------------------===//

TEST(handleInitFileId, BaseNameThenHashOfPathAndSalt) {
  // FNV-1a 64 of "/src/jacobi.c\0" and of "/src/jacobi.c\0" + salt,
  // computed independently: the id must not change between compilers,
  // platforms or releases, or stale objects would no longer match.
  EXPECT_EQ(makeFileId("/src/jacobi.c", ""), "jacobi_c_6fcc9ee231757f8c");
  EXPECT_EQ(makeFileId("/src/jacobi.c", "53*type=parallel**"), "jacobi_c_96e16e2f5461ae62");
}

TEST(handleInitFileId, SameInputSameId) {
  EXPECT_EQ(makeFileId("/a/b.c", "salt"), makeFileId("/a/b.c", "salt"));
}

TEST(handleInitFileId, PathAndSaltEachChangeTheId) {
  const std::string Id = makeFileId("/a/b.c", "salt");
  EXPECT_NE(Id, makeFileId("/x/b.c", "salt"));
  EXPECT_NE(Id, makeFileId("/a/b.c", "salt2"));
  // The separator keeps the split between path and salt significant.
  EXPECT_NE(makeFileId("/a/bc", "d"), makeFileId("/a/b", "cd"));
}

TEST(handleInitFileId, BaseNameReducedToIdentifierCharacters) {
  EXPECT_EQ(makeFileId("/x/my-file.v2.cpp", "").substr(0, 15), "my_file_v2_cpp_");
  // Each byte of a UTF-8 character becomes one '_'.
  EXPECT_EQ(makeFileId("/x/\xc3\xa9t\xc3\xa9.c", "").substr(0, 8), "__t___c_");
  // A leading digit is fine: the id follows "POMP_Init_".
  EXPECT_EQ(makeFileId("/x/1st.c", "").substr(0, 6), "1st_c_");
  EXPECT_EQ(makeFileId("relative.c", "").substr(0, 11), "relative_c_");
}

TEST(handleInitFileId, PathWithoutBaseNameGetsAPlaceholder) {
  EXPECT_EQ(makeFileId("", "").substr(0, 5), "file_");
  EXPECT_EQ(makeFileId("/dir/", "").substr(0, 5), "file_");
  EXPECT_NE(makeFileId("", ""), makeFileId("/dir/", ""));
}

TEST(handleInitFileId, LongBaseNameIsCut) {
  const std::string Long(300, 'a');
  const std::string Id = makeFileId("/x/" + Long, "");
  EXPECT_LT(Id.size(), Long.size());
  EXPECT_TRUE(isFileInitFunction(initFunctionName(Id)));
  // The cut keeps files with a long common prefix apart by the hash.
  EXPECT_NE(Id, makeFileId("/x/" + Long + "b", ""));
}

TEST(handleInitFileId, EndsInSeparatorAndSixteenLowercaseHexDigits) {
  for (const char *Path : {"/src/jacobi.c", "", "/x/-", "/x/ABC.C", "/\xff\xfe"}) {
    const std::string Id = makeFileId(Path, "salt");
    ASSERT_GT(Id.size(), HashHexDigits) << Path;
    EXPECT_EQ(Id[Id.size() - HashHexDigits - 1], '_') << Path;
    EXPECT_EQ(Id.find_first_not_of("0123456789abcdef", Id.size() - HashHexDigits),
              std::string::npos)
        << Path;
    EXPECT_EQ(
        Id.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"),
        std::string::npos)
        << Path;
  }
}

//===--- Which symbols are init functions ----------------------------------===//

TEST(handleInitSymbol, InitFunctionOfEveryIdIsRecognised) {
  EXPECT_EQ(initFunctionName("jacobi_c_6fcc9ee231757f8c"), "POMP_Init_jacobi_c_6fcc9ee231757f8c");
  for (const char *Path : {"/src/jacobi.c", "", "/x/1.c", "/x/\xc3\xa9.c"})
    EXPECT_TRUE(isFileInitFunction(initFunctionName(makeFileId(Path, "s")))) << Path;
  // The base-name part may be empty: only the suffix is the contract.
  EXPECT_TRUE(isFileInitFunction("POMP_Init__0123456789abcdef"));
}

TEST(handleInitSymbol, ProgramInitFunctionIsNot) {
  EXPECT_FALSE(isFileInitFunction(ProgramInitFunction));
  EXPECT_FALSE(isFileInitFunction(ProgramInitTable));
}

TEST(handleInitSymbol, NoPompApiRoutineIs) {
  ASSERT_FALSE(ApiEventRoutines.empty());
  // The two API routines that share the prefix must be among the checked ones.
  EXPECT_NE(std::find(ApiEventRoutines.begin(), ApiEventRoutines.end(), "POMP_Init_lock_event"),
            ApiEventRoutines.end());
  EXPECT_NE(
      std::find(ApiEventRoutines.begin(), ApiEventRoutines.end(), "POMP_Init_nest_lock_event"),
      ApiEventRoutines.end());
  for (const std::string &Name : ApiEventRoutines)
    EXPECT_FALSE(isFileInitFunction(Name)) << Name;
  for (const std::string &Name : ApiControlRoutines)
    EXPECT_FALSE(isFileInitFunction(Name)) << Name;
}

TEST(handleInitSymbol, NearMissesAreNot) {
  for (const char *Symbol : {
           "",
           "POMP_Init_",
           "POMP_Init",
           "POMP_Init_0123456789abcdef",        // no separator before the hash
           "POMP_Init_a_0123456789abcde",       // 15 digits
           "POMP_Init_a0123456789abcdef",       // no separator
           "POMP_Init_a_0123456789ABCDEF",      // uppercase hash
           "POMP_Init_a_0123456789abcdeg",      // not hex
           "POMP_Init_a-b_0123456789abcdef",    // not an identifier
           "POMP_Init_a_0123456789abcdef.cold", // a compiler-made part of a function
           "pomp_init_a_0123456789abcdef",      // wrong case
           "_POMP_Init_a_0123456789abcdef",     // prefixed (Mach-O spelling)
           "XPOMP_Init_a_0123456789abcdef",
       })
    EXPECT_FALSE(isFileInitFunction(Symbol)) << Symbol;
}

//===--- Per-file code -----------------------------------------------------===//

TEST(handleInitFile, VariableNamesAreNumberedFromOne) {
  EXPECT_EQ(handleVariable(1), "pomp_handle_1");
  EXPECT_EQ(handleVariable(42), "pomp_handle_42");
  EXPECT_EQ(ctcVariable(1), "pomp_ctc_1");
  EXPECT_EQ(ctcVariable(42), "pomp_ctc_42");
}

TEST(handleInitFile, PrologueInC) {
  const FileHandles Handles{SampleId, {"53*type=parallel**", "2**"}, {}, {}};
  EXPECT_EQ(filePrologue(Handles, Language::C),
            "#include \"pomplib.h\"\n"
            "static POMP_Handle_t pomp_handle_1 = 0;\n"
            "static const char pomp_ctc_1[] = \"53*type=parallel**\";\n"
            "static POMP_Handle_t pomp_handle_2 = 0;\n"
            "static const char pomp_ctc_2[] = \"2**\";\n"
            "void POMP_Init_" +
                SampleId + "(void);\n");
}

TEST(handleInitFile, PrologueInCxxDeclaresCLinkage) {
  const FileHandles Handles{SampleId, {"2**"}, {}, {}};
  const std::string Prologue = filePrologue(Handles, Language::CXX);
  EXPECT_NE(Prologue.find("\nextern \"C\" void POMP_Init_" + SampleId + "(void);\n"),
            std::string::npos)
      << Prologue;
  EXPECT_EQ(countLines(Prologue), 4u);
}

TEST(handleInitFile, PrologueWithoutHandles) {
  const FileHandles Handles{SampleId, {}, {}, {}};
  EXPECT_EQ(filePrologue(Handles, Language::C),
            "#include \"pomplib.h\"\nvoid POMP_Init_" + SampleId + "(void);\n");
}

TEST(handleInitFile, PrologueDeclaresOnlyTheCalledRoutines) {
  const std::vector<std::string> Called{"POMP_Finalize", "POMP_Parallel_end", "POMP_Init"};
  // The init function's POMP_Get_handle comes with the first handle.
  EXPECT_EQ(filePrologue({SampleId, {}, {}, Called}, Language::C),
            "#include \"pomp_types.h\"\n"
            "#ifndef POMPLIB_H\n"
            "int32_t POMP_Parallel_end(POMP_Handle_t handle, int32_t thread_id) POMP_NOTHROW;\n"
            "int32_t POMP_Init(void) POMP_NOTHROW;\n"
            "int32_t POMP_Finalize(void) POMP_NOTHROW;\n"
            "#endif\n"
            "void POMP_Init_" +
                SampleId + "(void);\n");
  const std::string Cxx = filePrologue({SampleId, {"2**"}, {}, Called}, Language::CXX);
  EXPECT_NE(Cxx.find("\nextern \"C\" int32_t POMP_Get_handle(POMP_Handle_t *handle, const char "
                     "ctc[]) POMP_NOTHROW;\n#endif\n"),
            std::string::npos)
      << Cxx;
  EXPECT_EQ(Cxx.find("pomplib.h\""), std::string::npos) << Cxx;
}

TEST(handleInitFile,
     DeclarableRoutinesAreTheEventsSixOthersTheContextFormsAndTheirFormsWithoutThreadId) {
  const std::vector<std::string> All = declarableRoutines();
  EXPECT_TRUE(isDeclarableRoutine("POMP_Parallel_fork"));
  EXPECT_TRUE(isDeclarableRoutine("POMP_Join_barrier_needed"));
  EXPECT_TRUE(isDeclarableRoutine("POMP_Parallel_fork_ctx"));
  EXPECT_TRUE(isDeclarableRoutine("POMP_Task_create_enter_ctx"));
  EXPECT_TRUE(isDeclarableRoutine("POMP_Parallel_end_notid"));
  EXPECT_TRUE(isDeclarableRoutine("POMP_Parallel_fork_ctx_notid"));
  EXPECT_FALSE(isDeclarableRoutine("POMP_Parallel_end_ctx"));
  EXPECT_FALSE(isDeclarableRoutine("POMP_Init_Handles"));
  EXPECT_FALSE(isDeclarableRoutine("POMP_Set_level"));
  EXPECT_FALSE(isDeclarableRoutine("POMP_Parallel"));
  // Only routines with a thread id have a form without it.
  EXPECT_FALSE(isDeclarableRoutine("POMP_Init_notid"));
  EXPECT_FALSE(isDeclarableRoutine("POMP_Join_barrier_needed_notid"));
  EXPECT_FALSE(isDeclarableRoutine("_notid"));
  // The events, six others, three context forms, then the forms without the
  // thread id of the events and of the context forms.
  const std::size_t Events = (All.size() - 6 - 2 * 3) / 2;
  EXPECT_EQ(All.front(), "POMP_Parallel_enter");
  EXPECT_EQ(All[Events + 5], "POMP_Join_barrier_needed");
  EXPECT_EQ(All[Events + 8], "POMP_Task_create_enter_ctx");
  EXPECT_EQ(All[Events + 9], "POMP_Parallel_enter_notid");
  EXPECT_EQ(All.back(), "POMP_Task_create_enter_ctx_notid");
}

TEST(handleInitFile, FormsWithoutThreadIdAreDeclaredOrMacrosOverTheRoutines) {
  const std::string Forms =
      noThreadIdForms({"POMP_Parallel_end_notid", "POMP_Section_begin_notid",
                       "POMP_Parallel_fork_ctx_notid", "POMP_Init", "POMP_Single_end"},
                      Language::C);
  EXPECT_EQ(Forms, "#if defined(POMP_NO_NOTID_FORMS) || defined(POMP_CONTEXT_BY_POINTER)\n"
                   "#define POMP_Parallel_end_notid(handle) POMP_Parallel_end(handle, -1)\n"
                   "#define POMP_Section_begin_notid(handle, section_num) "
                   "POMP_Section_begin(handle, section_num, -1)\n"
                   "#define POMP_Parallel_fork_ctx_notid(handle, num_threads, if_expr_result, ctc) "
                   "POMP_Parallel_fork_ctx(handle, -1, num_threads, if_expr_result, ctc)\n"
                   "#else\n"
                   "int32_t POMP_Parallel_end_notid(POMP_Handle_t handle) POMP_NOTHROW;\n"
                   "int32_t POMP_Section_begin_notid(POMP_Handle_t handle, int32_t section_num) "
                   "POMP_NOTHROW;\n"
                   "POMP_Context_t POMP_Parallel_fork_ctx_notid(POMP_Handle_t *handle, int32_t "
                   "num_threads, int32_t if_expr_result, const char ctc[]) POMP_NOTHROW;\n"
                   "#endif\n");
  EXPECT_EQ(noThreadIdForms({"POMP_Init", "POMP_Parallel_end"}, Language::CXX), "");
  EXPECT_NE(noThreadIdForms({"POMP_Parallel_end_notid"}, Language::CXX)
                .find("extern \"C\" int32_t POMP_Parallel_end_notid("),
            std::string::npos);
}

TEST(handleInitFile, PrologueIsOneLinePerDeclaration) {
  const FileHandles Handles{SampleId, std::vector<std::string>(5, "2**"), {}, {}};
  // #include, a handle and a CTC array per construct, the declaration.
  EXPECT_EQ(countLines(filePrologue(Handles, Language::C)), 1 + 2 * 5 + 1u);
}

TEST(handleInitFile, CtcStringsAreEscaped) {
  // The tail holds a trigraph sequence and ends in two question marks.
  const std::string Ctc = std::string("q\"b\\s\tn\nu\xc3\xa9z") + '\0' + "1?\?=x?y?\?";
  const FileHandles Handles{SampleId, {Ctc}, {}, {}};
  const std::string Prologue = filePrologue(Handles, Language::C);
  // Quote and backslash escaped; control and non-ASCII bytes as three-digit
  // octal escapes (the '1' after \000 cannot extend it); the second '?' of
  // each pair escaped, so no trigraph forms.
  EXPECT_NE(
      Prologue.find("pomp_ctc_1[] = \"q\\\"b\\\\s\\011n\\012u\\303\\251z\\0001?\\?=x?y?\\?\";\n"),
      std::string::npos)
      << Prologue;
}

TEST(handleInitFile, LongestPortableLiteralStaysALiteral) {
  const std::string Ctc(509, 'x');
  const std::string Prologue = filePrologue({SampleId, {Ctc}, {}, {}}, Language::C);
  EXPECT_NE(Prologue.find("pomp_ctc_1[] = \"" + Ctc + "\";\n"), std::string::npos);
}

TEST(handleInitFile, LongerCtcIsACharacterList) {
  // One byte over what C90 guarantees for a literal: character constants,
  // escaped the same way, and the terminating NUL written out.
  const std::string Ctc = std::string(508, 'x') + "'\\";
  const std::string Prologue = filePrologue({SampleId, {Ctc}, {}, {}}, Language::C);
  EXPECT_EQ(Prologue.find('"', Prologue.find("pomp_ctc_1")), std::string::npos) << Prologue;
  EXPECT_NE(Prologue.find("pomp_ctc_1[] = {'x', 'x', "), std::string::npos);
  EXPECT_NE(Prologue.find(", 'x', '\\'', '\\\\', '\\0'};\n"), std::string::npos);
  EXPECT_EQ(std::count(Prologue.begin(), Prologue.end(), ','), 510);
}

TEST(handleInitFile, InitFunctionInC) {
  const FileHandles Handles{SampleId, {"53*type=parallel**", "2**"}, {}, {}};
  const std::string Function = fileInitFunction(Handles, Language::C);
  EXPECT_EQ(Function.front(), '\n');
  EXPECT_NE(Function.find("\n#if defined(__GNUC__) && !defined(POMP_NO_LOAD_TIME_BINDING)\n"
                          "__attribute__((constructor))\n"
                          "#endif\n"
                          "void POMP_Init_" +
                          SampleId +
                          "(void) {\n"
                          "  static POMP_Handle_t *const pomp_handles[] = {&pomp_handle_1, "
                          "&pomp_handle_2};\n"
                          "  static const char *const pomp_ctcs[] = {pomp_ctc_1, pomp_ctc_2};\n"
                          "  unsigned pomp_i;\n"
                          "  for (pomp_i = 0; pomp_i < sizeof pomp_handles / sizeof "
                          "pomp_handles[0]; ++pomp_i)\n"
                          "    POMP_Get_handle(pomp_handles[pomp_i], pomp_ctcs[pomp_i]);\n"
                          "}\n"),
            std::string::npos)
      << Function;
  EXPECT_EQ(Function.find("extern"), std::string::npos);
}

TEST(handleInitFile, InitFunctionInCxxHasCLinkage) {
  const std::string Function = fileInitFunction({SampleId, {"2**"}, {}, {}}, Language::CXX);
  EXPECT_NE(Function.find("\nextern \"C\"\n#if defined(__GNUC__) && "
                          "!defined(POMP_NO_LOAD_TIME_BINDING)\n__attribute__((constructor))\n"
                          "#endif\nvoid POMP_Init_" +
                          SampleId + "(void) {\n"),
            std::string::npos)
      << Function;
}

TEST(handleInitFile, FileWithoutHandlesStillGetsAnInitFunction) {
  const std::string Function = fileInitFunction({SampleId, {}, {}, {}}, Language::C);
  EXPECT_NE(Function.find("void POMP_Init_" + SampleId + "(void) {\n}\n"), std::string::npos)
      << Function;
}

//===--- Program code ------------------------------------------------------===//

TEST(handleInitHeader, TagIsHAndSixteenHexDigitsOfPathAndSalt) {
  const std::string Tag = makeHeaderTag("/src/include/kern.hpp", "2**");
  ASSERT_EQ(Tag.size(), 17u);
  EXPECT_EQ(Tag.front(), 'h');
  EXPECT_EQ(Tag.find_first_not_of("0123456789abcdef", 1), std::string::npos) << Tag;
  EXPECT_EQ(Tag, makeHeaderTag("/src/include/kern.hpp", "2**"));
  EXPECT_NE(Tag, makeHeaderTag("/src/include/kern.hpp", "3*x**"));
  EXPECT_NE(Tag, makeHeaderTag("/src/include/other.hpp", "2**"));
}

TEST(handleInitHeader, VariableNamesCarryTheTag) {
  EXPECT_EQ(handleVariable(3, "h0123456789abcdef"), "pomp_handle_h0123456789abcdef_3");
  EXPECT_EQ(ctcVariable(3, "h0123456789abcdef"), "pomp_ctc_h0123456789abcdef_3");
  EXPECT_EQ(handleVariable(3), "pomp_handle_3");
}

TEST(handleInitHeader, PrologueDefinesWeakSymbolsOnce) {
  const HeaderHandles Handles{"h0123456789abcdef", {"2**"}};
  EXPECT_EQ(headerPrologue(Handles, Language::C),
            "#ifndef POMP_HEADER_h0123456789abcdef\n"
            "#define POMP_HEADER_h0123456789abcdef\n"
            "#include <omp.h>\n"
            "#include \"pomplib.h\"\n"
            "__attribute__((weak)) POMP_Handle_t pomp_handle_h0123456789abcdef_1 = 0;\n"
            "__attribute__((weak)) const char pomp_ctc_h0123456789abcdef_1[] = \"2**\";\n"
            "#endif\n");
  // A const object needs extern for external linkage in C++.
  EXPECT_NE(headerPrologue(Handles, Language::CXX)
                .find("extern __attribute__((weak)) const char pomp_ctc_h0123456789abcdef_1[]"),
            std::string::npos);
}

TEST(handleInitHeader, FileInitFunctionBindsTheHeadersHandles) {
  FileHandles Handles{SampleId, {"2**"}, {}, {}};
  Handles.Headers.push_back({"h0123456789abcdef", {"2**", "2**"}});
  const std::string Init = fileInitFunction(Handles, Language::C);
  EXPECT_NE(Init.find("  static POMP_Handle_t *const pomp_handles[] = {&pomp_handle_1, "
                      "&pomp_handle_h0123456789abcdef_1, &pomp_handle_h0123456789abcdef_2};\n"
                      "  static const char *const pomp_ctcs[] = {pomp_ctc_1, "
                      "pomp_ctc_h0123456789abcdef_1, pomp_ctc_h0123456789abcdef_2};\n"),
            std::string::npos)
      << Init;
}

TEST(handleInitProgram, CallsEachInitFunctionInTheGivenOrder) {
  const std::string B = initFunctionName(makeFileId("/b.c", ""));
  const std::string A = initFunctionName(makeFileId("/a.c", ""));
  const std::string Source = programInitHandles({B, A});
  const std::size_t Definition = Source.find("void POMP_Init_Handles(void) {\n");
  ASSERT_NE(Definition, std::string::npos) << Source;
  // Declared with a weak reference before the definition.
  for (const std::string &Name : {A, B}) {
    const std::size_t Declaration = Source.find("void " + Name + "(void);\n#pragma weak " + Name);
    EXPECT_LT(Declaration, Definition) << Name;
  }
  const std::size_t CallB = Source.find("  if (" + B + ")\n    " + B + "();\n", Definition);
  const std::size_t CallA = Source.find("  if (" + A + ")\n    " + A + "();\n", Definition);
  ASSERT_NE(CallB, std::string::npos) << Source;
  ASSERT_NE(CallA, std::string::npos) << Source;
  EXPECT_LT(CallB, CallA);
}

TEST(handleInitProgram, HasCLinkageEvenWhenCompiledAsCxx) {
  const std::string Source = programInitHandles({});
  EXPECT_NE(Source.find("#ifdef __cplusplus\nextern \"C\" {\n#endif\n"), std::string::npos);
  EXPECT_NE(Source.find("}\n#ifdef __cplusplus\n}\n#endif\n"), std::string::npos);
}

TEST(handleInitProgram, WithoutInitFunctionsTheBodyIsEmpty) {
  const std::string Source = programInitHandles({});
  EXPECT_NE(Source.find("void POMP_Init_Handles(void);\nvoid POMP_Init_Handles(void) {\n}\n"),
            std::string::npos)
      << Source;
  EXPECT_EQ(Source.find("#pragma weak"), std::string::npos);
}

TEST(handleInitProgram, SameInputSameSource) {
  const std::vector<std::string> Names = {initFunctionName(makeFileId("/a.c", "")),
                                          initFunctionName(makeFileId("/b.c", ""))};
  EXPECT_EQ(programInitHandles(Names), programInitHandles(Names));
}

/// The records of an object's .pomp_uninstrumented section as a linker
/// concatenates them: padding between records is skipped; anything else is
/// reported, keeping the records before it.
TEST(handleInitUninstrumented, ParsesConcatenatedRecords) {
  using namespace std::string_literals;
  const std::string Two = "pomp-uninstrumented-1\0/a.c\0a.c:1:2: error: x\0"
                          "\0\0\0pomp-uninstrumented-1\0/b.c\0\0"s;
  bool Malformed = true;
  const std::vector<UninstrumentedRecord> Records = parseUninstrumentedRecords(Two, Malformed);
  EXPECT_FALSE(Malformed);
  ASSERT_EQ(Records.size(), 2u);
  EXPECT_EQ(Records[0].File, "/a.c");
  EXPECT_EQ(Records[0].Reason, "a.c:1:2: error: x");
  EXPECT_EQ(Records[1].File, "/b.c");
  EXPECT_EQ(Records[1].Reason, "");

  EXPECT_TRUE(parseUninstrumentedRecords(""s, Malformed).empty());
  EXPECT_FALSE(Malformed);
  const std::string Cut = "pomp-uninstrumented-1\0/a.c\0r\0pomp-uninstrumented-1\0/b.c"s;
  EXPECT_EQ(parseUninstrumentedRecords(Cut, Malformed).size(), 1u);
  EXPECT_TRUE(Malformed);
  EXPECT_TRUE(parseUninstrumentedRecords("pomp-uninstrumented-2\0/a.c\0r\0"s, Malformed).empty());
  EXPECT_TRUE(Malformed);
}

/// The header holds the record the parser reads back (as character
/// constants), a weak reference and a constructor; NUL bytes cannot cut it.
TEST(handleInitUninstrumented, HeaderHoldsTheRecord) {
  using namespace std::string_literals;
  const std::string Header = uninstrumentedHeader("/src/x.c", "why\0not"s);
  EXPECT_NE(Header.find("#pragma GCC system_header"), std::string::npos);
  EXPECT_NE(Header.find("__section__(\".pomp_uninstrumented\")"), std::string::npos);
  EXPECT_NE(Header.find("int POMP_Note_uninstrumented(const char *, const char *) "
                        "__attribute__((__weak__));"),
            std::string::npos);
  EXPECT_NE(Header.find("static const char POMP_Uninstrumented_x_c_"), std::string::npos);
  EXPECT_NE(Header.find("__attribute__((__constructor__))"), std::string::npos);
  // "whynot": the NUL went, so the reason is one field.
  EXPECT_NE(Header.find("'y', 'n', 'o'"), std::string::npos);
  EXPECT_EQ(Header, uninstrumentedHeader("/src/x.c", "whynot"));
}

} // namespace
} // namespace pomp::handleinit
