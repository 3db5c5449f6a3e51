//===- pomp/handle-init/HandleInit.h - Handle initialisation code -*- C++ -*-===//
///
/// \file
/// The one place that knows the naming contract of POMP handle initialisation
/// across compilation units (paper Appendix B):
///
/// - each instrumented file declares its handles and CTC strings at its top
///   (filePrologue) and defines `POMP_Init_<id>()` at its end
///   (fileInitFunction), which binds every handle with POMP_Get_handle;
/// - pomp-link finds every `POMP_Init_<id>` symbol of a link
///   (isFileInitFunction) and generates `POMP_Init_Handles()` calling each
///   (programInitHandles), which POMP_Init() calls.
///
/// Generated code is deterministic and compiles as C89 and as C++ (the
/// functions have C linkage in both).
///
//===----------------------------------------------------------------------===//
#ifndef POMP_HANDLE_INIT_HANDLEINIT_H
#define POMP_HANDLE_INIT_HANDLEINIT_H

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pomp::handleinit {

/// Prefix of every per-file init function symbol.
inline constexpr std::string_view InitFunctionPrefix = "POMP_Init_";
/// The program-level function pomp-link generates; never a per-file one.
inline constexpr std::string_view ProgramInitFunction = "POMP_Init_Handles";
/// The table of init functions that pomp-link writes as an object instead of
/// compiling the C source of POMP_Init_Handles() (pomp-link --object):
/// pointer-sized words, the number N of entries, then N addresses of init
/// functions in pomp-link's order, each zero when its function is not linked
/// (a weak reference). libpomp's own POMP_Init_Handles() calls every non-zero
/// entry in order, which is what the generated function does
/// (docs/HANDLE_INIT.md). Its name is no per-file init function's.
inline constexpr std::string_view ProgramInitTable = "POMP_Init_Handles_table";

/// Source language of generated code: C++ needs extern "C" linkage.
enum class Language { C, CXX };

/// The handles of the constructs of one included header, as one translation
/// unit instruments it (docs/INSTRUMENTER.md, "Headers"). Their names carry
/// Tag; the definitions are weak, so every translation unit that instruments
/// the header alike (same Tag) shares one handle per construct site: one
/// region each in the profile, no duplicate symbols, and inline functions
/// and templates that name the same entities in every unit.
struct HeaderHandles {
  /// makeHeaderTag of the header's path and CTC strings.
  std::string Tag;
  /// CTC string of handle I+1.
  std::vector<std::string> CtcStrings;
};

/// The handles of one instrumented file, numbered 1..N in source order.
struct FileHandles {
  /// Unique, deterministic id of the file (makeFileId).
  std::string FileId;
  /// CTC string of handle I+1 (already a complete CTC string).
  std::vector<std::string> CtcStrings;
  /// The handles of the headers instrumented with the file: the file's init
  /// function binds them too.
  std::vector<HeaderHandles> Headers;
  /// The POMP routines the file's code calls ("POMP_Parallel_fork", each
  /// accepted by isDeclarableRoutine): the prologue declares only these (and
  /// POMP_Get_handle, which the init function calls) after including
  /// pomp_types.h, instead of including pomplib.h, whose hundred declarations
  /// cost every compile. Unset: the prologue includes pomplib.h.
  std::optional<std::vector<std::string>> CalledRoutines;
};

/// What the name of an event routine that hands out a context gets in its
/// form that returns it (pomp_context_forms.h): POMP_Parallel_fork_ctx.
inline constexpr std::string_view ContextFormSuffix = "_ctx";

/// What an event routine's name (or a context form's) gets in its form
/// without the thread id, which libpomp ignores (POMP_API.md, "Routines
/// without the thread id"): POMP_Parallel_end_notid, POMP_Parallel_fork_ctx_notid.
inline constexpr std::string_view NoThreadIdSuffix = "_notid";

/// The thread id of the paper's "not available" (section 3.3): what generated
/// code passes when it does not compute one, and what the macros of
/// noThreadIdForms pass for a POMP library without those forms.
inline constexpr std::string_view UnknownThreadId = "-1";

/// True for a routine routineDeclarations can declare: an event routine of
/// pomp_events.def, a routine of pomplib.h that generated code calls
/// (POMP_Init, POMP_Finalize, POMP_On, POMP_Off, POMP_Get_handle,
/// POMP_Join_barrier_needed), a form of pomp_context_forms.h, or the form
/// without the thread id of an event routine or context form.
bool isDeclarableRoutine(std::string_view Name);

/// Every routine isDeclarableRoutine accepts, in the order of the
/// declarations (the events in pomp_events.def's order, then the others).
std::vector<std::string> declarableRoutines();

/// Declarations of Routines (each accepted by isDeclarableRoutine; repeats
/// and order do not matter), one per line in declarableRoutines' order, as
/// pomplib.h declares them: POMP_NOTHROW, and C linkage in C++. They are
/// skipped when pomplib.h was included before; a pomplib.h included after
/// them repeats compatible declarations (C89 and C++, gcc and clang). Needs
/// pomp_types.h. The forms of pomp_context_forms.h come from that header,
/// which defines them with the pointer routines under POMP_CONTEXT_BY_POINTER.
std::string routineDeclarations(const std::vector<std::string> &Routines, Language Lang);

/// The forms without the thread id among Routines (NoThreadIdSuffix; the
/// others are ignored), which pomplib.h does not declare: declared as libpomp
/// exports them, or, for a POMP library without them (the file compiled with
/// -DPOMP_NO_NOTID_FORMS, or with -DPOMP_CONTEXT_BY_POINTER: a library
/// without the context forms has none of these either), defined as macros
/// that call the routine with the thread id -1. routineDeclarations ends with
/// them; a file or header that includes pomplib.h adds them after it. Needs
/// the routines' declarations (pomplib.h's or routineDeclarations').
std::string noThreadIdForms(const std::vector<std::string> &Routines, Language Lang);

/// "h" followed by 16 lowercase hex digits, a hash of the header's absolute
/// path and of Salt (its CTC strings): two different instrumentations of one
/// header never share a name.
std::string makeHeaderTag(std::string_view AbsolutePath, std::string_view Salt);

/// A file id made of the file's base name (reduced to [A-Za-z0-9_]) and a
/// hash of its absolute path and of Salt (the instrumenter passes the CTC
/// strings, so two different instrumentations of one path differ):
/// "jacobi_c_1f3a5c7e9b2d4f60". Same input, same id.
std::string makeFileId(std::string_view AbsolutePath, std::string_view Salt);

/// "POMP_Init_<FileId>".
std::string initFunctionName(std::string_view FileId);

/// True for a per-file init function symbol: "POMP_Init_" followed by a file
/// id as makeFileId writes it, that is identifier characters ending in '_' and
/// 16 lowercase hex digits. The suffix is what rejects POMP_Init_Handles and
/// the API routines that share the prefix (POMP_Init_lock_event,
/// POMP_Init_nest_lock_event), now and when the API grows.
bool isFileInitFunction(std::string_view Symbol);

/// Name of the handle variable of handle Index (1-based): "pomp_handle_<Index>"
/// for the main file (file-static), "pomp_handle_<Tag>_<Index>" for a header.
std::string handleVariable(unsigned Index, std::string_view Tag = "");

/// Name of the CTC string array of handle Index (1-based): "pomp_ctc_<Index>",
/// or "pomp_ctc_<Tag>_<Index>" for a header.
std::string ctcVariable(unsigned Index, std::string_view Tag = "");

/// Text as a C string literal (with its quotes) that compiles without
/// warnings in every C and C++ standard: quotes and backslashes escaped,
/// every byte that is not printable ASCII as a three-digit octal escape (no
/// following digit can extend it), the second '?' of a pair escaped so that
/// no trigraph forms. Also right for the file name of a #line directive.
std::string cStringLiteral(std::string_view Text);

/// Byte C as a C character constant ('a', '\047'), by the same rules.
std::string cCharacterConstant(unsigned char C);

/// Declarations for the top of an instrumented header's copy: guarded, so
/// that a header included twice declares them once; includes omp.h and
/// pomplib.h and defines the header's handles and CTC strings as weak
/// symbols (C and C++ alike, every standard).
std::string headerPrologue(const HeaderHandles &Handles, Language Lang);

/// Declarations for the top of an instrumented file: includes pomplib.h (or
/// pomp_types.h and routineDeclarations of Handles.CalledRoutines), defines
/// the handles (zero-initialised, static) and the CTC string arrays,
/// and declares the file's init function; one declaration per line, ending in
/// a newline. A CTC string longer than the 509 characters C90 guarantees for
/// a literal is written as a list of character constants instead.
std::string filePrologue(const FileHandles &Handles, Language Lang);

/// Definition of the file's init function, for the end of the file. It starts
/// with a newline, so it may be appended to a file whose last line has none.
/// A file without handles still gets one (with an empty body), so that every
/// instrumented object looks the same to pomp-link. It binds the handles in
/// order with one POMP_Get_handle call in a loop over a table of handles and
/// one of CTC strings (cheaper to compile than a call per handle). It is
/// also a static constructor (gcc and clang; not with
/// -DPOMP_NO_LOAD_TIME_BINDING), so that it runs when the file is loaded and
/// no handle is bound lazily while another thread reads it, also without
/// pomp-link.
std::string fileInitFunction(const FileHandles &Handles, Language Lang);

/// C source (C89 and C++): Comment, each init function declared weak, then
/// the function that Declaration and DefinitionHead name, which calls every
/// init function that is linked in. Shared by the program's
/// POMP_Init_Handles() and a shared library's load-time constructor.
std::string weakInitCaller(std::string_view Comment, const std::vector<std::string> &InitFunctions,
                           std::string_view Declaration, std::string_view DefinitionHead);

/// C source (C89, also valid C++) defining POMP_Init_Handles(), which calls
/// each init function in the given order (pomp-link sorts them for
/// determinism). InitFunctions are full symbol names accepted by
/// isFileInitFunction, each at most once. The references are weak
/// (`#pragma weak`, called only when non-null), so that naming a function
/// does not pull its archive member into the link.
std::string programInitHandles(const std::vector<std::string> &InitFunctions);

/// The name of the constructor programStartInit defines.
inline constexpr std::string_view ProgramStartFunction = "pomp_start_program";

/// C source (C89, also valid C++) of a static constructor that calls
/// POMP_Init() through a weak reference, for a program whose main is not
/// instrumented (its file was compiled uninstrumented): measurement starts
/// before main, as the instrumented main would start it, and libpomp's exit
/// hook writes the profile. POMP_Init() is idempotent.
std::string programStartInit();

/// Fortran (docs/INSTRUMENTER.md, "Fortran"): the handles of a file are the
/// elements of one INTEGER*8 array (spelled integer(kind=8), which
/// gfortran -std=f2018 accepts), `pomp_h`, in a named common block that
/// every scoping unit using them declares alike and that the file's init
/// subroutine binds. A common block (the paper's Fortran 77 scheme) needs no
/// module file in the user's build directory and works in fixed and free
/// form; its storage starts zeroed, so lazy binding works without the init.

/// Local name of the handle array: "pomp_h".
inline constexpr std::string_view FortranHandleArray = "pomp_h";

/// Name of a file's common block: "pomp_cb_" and the hash of the file id
/// (a Fortran name has at most 63 characters; the base name may not fit).
std::string fortranCommonBlock(std::string_view FileId);

/// The handle Index (1-based) as a Fortran expression: "pomp_h(3)".
std::string fortranHandle(unsigned Index);

/// Statements (unformatted, one per element) that declare the handle array
/// of a file with Count handles and its common block.
std::vector<std::string> fortranHandleDeclarations(std::string_view FileId, unsigned Count);

/// Text as a Fortran character literal: apostrophes doubled, in apostrophes.
std::string fortranStringLiteral(std::string_view Text);

/// Statements (unformatted) of the file's init subroutine, for the end of
/// the file: `subroutine pomp_init_<hash>() bind(C, name="POMP_Init_<id>")`,
/// which binds every handle with POMP_Get_handle(pomp_h(i), ctc). pomp-link
/// finds it by its binding name like a C file's (isFileInitFunction).
std::vector<std::string> fortranFileInit(const FileHandles &Handles);

} // namespace pomp::handleinit

#endif // POMP_HANDLE_INIT_HANDLEINIT_H
