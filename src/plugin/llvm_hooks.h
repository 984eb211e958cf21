/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the passes of hooktrace's LLVM plugin (hooktrace_llvm.cpp,
 * docs/clang.md) share: which calls are the -finstrument-functions hooks
 * and whose, the identity an inlined copy's hooks pass instead of the
 * function's address, the options, and the names each module lists in the
 * sections hooktrace reads at shut-down. */
#ifndef HT_PLUGIN_LLVM_HOOKS_H
#define HT_PLUGIN_LLVM_HOOKS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"

namespace hooktrace {

struct Options {
    bool keepInlined; /* every inlined copy keeps its hooks (the control) */
    unsigned maxStatements; /* tiny functions: 0 keeps every hook */
    bool verbose;
};
const Options &options();

enum class Hook { None, Enter, Exit };

/* Hooks the inliner does not see (hideHooks, docs/plugin.md): from the
 * start of clang's pipeline to the point after inlining where the rule for
 * inlined copies is applied, each hook call is a marker,
 *     llvm.annotation.i64 (KIND, __hooktrace_inlined.NAME, "hooktrace", 0)
 * on inaccessible memory only.  Clang's inliner costs an annotation at
 * nothing, where it charges each hook as a call with two arguments (so
 * medium helpers the plain build inlines stayed out of line, with their
 * hooks, in the element loops), and the marker names the function through
 * its inlined-copy id, not &F, so that a static function called once is
 * still inlined by the rule for those (its own hooks no longer take its
 * address).  revealHook turns a marker back into the hook call. */

/* Whether I is a hook: a direct call to __cyg_profile_func_enter or
 * _exit naming a function, or a marker. */
Hook hookKind(const llvm::Instruction &I);

/* The linkage name of the function a hook or marker names (empty when it
 * names something else, such as an inlined copy's id: already decided). */
llvm::StringRef hookedName(const llvm::CallInst &hook);

/* Whether hook is one of F's own hooks (or markers): not inlined into F. */
bool isOwnHook(const llvm::CallInst &hook, const llvm::Function &F);

/* Replaces every hook call of F by its marker; at most once per function. */
bool hideHooks(llvm::Function &F);

/* Replaces the hook or marker by the hook call naming `named` (&F, or an
 * id), with llvm.returnaddress (0) of F as its call site; returns it. */
llvm::CallInst *revealHook(llvm::CallInst &hook, llvm::Constant *named);

/* Removes F's own hooks (and the return addresses they passed).  Returns
 * whether there were any. */
bool removeOwnHooks(llvm::Function &F);

/* Erases the llvm.returnaddress calls nothing uses any more. */
void removeUnusedReturnAddresses(llvm::Function &F);

/* The identity the hooks and counts of F's inlined copies pass instead of
 * &F: __hooktrace_inlined.<linkage name>, whose content is that name
 * (made on first use; one per program by its COMDAT group). */
llvm::Constant *inlinedId(llvm::Module &M, llvm::StringRef linkageName, llvm::Type *pointerType);

/* Erases the ids nothing names any more (the markers of functions whose
 * copies all went, or that stayed out of line). */
void removeUnusedIds(llvm::Module &M);

/* The module's lists, written into its assembler output at its end
 * (writeSections): functions left out as tiny (.hooktrace.uninstrumented)
 * and the sites of functions whose inlined copies became counts
 * (.hooktrace.inlined). */
void noteTiny(llvm::Module &M, llvm::StringRef linkageName);
void noteCountedSites(llvm::Module &M, llvm::StringRef linkageName, unsigned sites);
void writeSections(llvm::Module &M);

/* The passes, in pipeline order (hooktrace_llvm.cpp places them). */
/* OpenMP outlined functions named after their function (llvm_openmp.cpp). */
bool nameOpenMPRegions(llvm::Module &M);
/* Tiny functions lose their hooks before they are inlined (llvm_tiny.cpp). */
bool leaveOutIfTiny(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
/* The rule for inlined copies (llvm_inlined.cpp): each function once. */
bool rewriteInlinedCopies(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);

/* Calls a copy may make and still be straight-line leaf code: intrinsics,
 * const or pure maths of the C library, noreturn calls, the hooks. */
bool isRealCall(const llvm::CallBase &call, const llvm::TargetLibraryInfo &TLI);

} // namespace hooktrace

#endif
