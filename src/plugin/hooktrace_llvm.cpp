/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * hooktrace's LLVM plugin, for clang 14 (docs/clang.md): the
 * same call tree and counts from clang as from GCC with hooktrace's GCC
 * plugin.  Loaded with -fpass-plugin (and -fplugin, so that its -mllvm
 * options are known when clang reads them) beside plain
 * -finstrument-functions, whose hooks clang 14 puts into every function at
 * the start of its pipeline, before anything is inlined.
 *
 * Where each part runs in clang's new pass manager pipeline:
 *
 *   - early simplification (module, every level, before the inliner):
 *     OpenMP outlined functions named after their function, the plumbing
 *     clang generates for OpenMP without hooks (llvm_openmp.cpp);
 *     extern inline bodies (available_externally: glibc's atoi, a C99
 *     inline definition) without hooks, as GCC leaves them: their
 *     out-of-line body is someone else's, and their copies library code;
 *     then every hook hidden from the inliner as a marker (llvm_hooks.h),
 *     so that clang inlines what it inlines without hooks;
 *   - the end of each function's simplification (inside the inliner's walk,
 *     callees first): tiny functions lose their hooks before their callers
 *     inline them (llvm_tiny.cpp);
 *   - the start of the vectoriser (each function, -O1 and up): the rule for
 *     inlined copies, which also turns the markers back into hooks
 *     (llvm_inlined.cpp).  It is the first point after all
 *     inlining (the inliner's walk of the call graph is over) and before
 *     the loop vectoriser and the late unroller, so the loops whose leaf
 *     copies become counts are vectorised without the hook calls;
 *   - the end of the pipeline (module): the rule for the functions the
 *     vectoriser's point did not see (-O0 and ThinLTO's compile have no
 *     such point), so that no marker is left for code generation; then
 *     the names this module lists, written into its assembler output
 *     (llvm_hooks.cpp).
 *
 * -flto: the plugin runs in the compile (clang's pipeline before the
 * link), so what clang inlines there follows the rule; LLVM 14's linkers
 * (lld, LLVMgold) cannot load a pass plugin, so what the link inlines
 * keeps its hooks naming the function, as -finstrument-functions gives
 * them. */
#include "llvm_hooks.h"

#include "llvm/IR/PassManager.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace {

struct EarlyPass : PassInfoMixin<EarlyPass> {
    PreservedAnalyses run(Module &M, ModuleAnalysisManager &)
    {
        bool changed = hooktrace::nameOpenMPRegions(M);
        for (Function &F : M) {
            if (F.hasAvailableExternallyLinkage())
                changed |= hooktrace::removeOwnHooks(F);
            changed |= hooktrace::hideHooks(F);
        }
        return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
    }
    static bool isRequired() { return true; }
};

struct TinyPass : PassInfoMixin<TinyPass> {
    PreservedAnalyses run(Function &F, FunctionAnalysisManager &FAM)
    {
        if (!hooktrace::leaveOutIfTiny(F, FAM))
            return PreservedAnalyses::all();
        /* Calls only went: the control flow and the loops are as they were. */
        PreservedAnalyses kept;
        kept.preserveSet<CFGAnalyses>();
        return kept;
    }
};

struct InlinedPass : PassInfoMixin<InlinedPass> {
    PreservedAnalyses run(Function &F, FunctionAnalysisManager &FAM)
    {
        return hooktrace::rewriteInlinedCopies(F, FAM) ? PreservedAnalyses::none() : PreservedAnalyses::all();
    }
    /* Also in optnone functions (optimize ("O0")), which may hold copies
     * of always_inline functions. */
    static bool isRequired() { return true; }
};

struct LatePass : PassInfoMixin<LatePass> {
    PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM)
    {
        FunctionAnalysisManager &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
        for (Function &F : M)
            if (hooktrace::rewriteInlinedCopies(F, FAM))
                FAM.invalidate(F, PreservedAnalyses::none());
        hooktrace::removeUnusedIds(M);
        hooktrace::writeSections(M);
        return PreservedAnalyses::none();
    }
    static bool isRequired() { return true; }
};

void registerPasses(PassBuilder &PB)
{
    PB.registerPipelineEarlySimplificationEPCallback(
        [](ModulePassManager &MPM, OptimizationLevel) { MPM.addPass(EarlyPass()); });
    PB.registerScalarOptimizerLateEPCallback(
        [](FunctionPassManager &FPM, OptimizationLevel) { FPM.addPass(TinyPass()); });
    PB.registerVectorizerStartEPCallback(
        [](FunctionPassManager &FPM, OptimizationLevel) { FPM.addPass(InlinedPass()); });
    PB.registerOptimizerLastEPCallback([](ModulePassManager &MPM, OptimizationLevel) { MPM.addPass(LatePass()); });
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo()
{
    return {LLVM_PLUGIN_API_VERSION, "hooktrace", "1", registerPasses};
}
