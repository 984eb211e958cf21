/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tiny functions lose their hooks before they are inlined, as with the GCC
 * plugin's first rule (docs/plugin.md): no loop, at most max-statements
 * instructions besides the hooks, and no call but to intrinsics, the C
 * library's maths, or on a path that ends the program or throws.
 *
 * It runs at the end of each function's simplification, inside the
 * inliner's walk of the call graph, callees before callers: the body it
 * judges is the one the callers will inline (its own callees already in
 * it, its variables in registers), so the count is of instructions that
 * will run, not of clang's first stack loads and stores.  A function that
 * already holds another function's hooks (an inlined copy of a function
 * that is not tiny) keeps its own, as a GCC-compiled function calling a
 * function that is not tiny does.  Not at -O0, where nothing is inlined
 * and clang does not run this point. */
#include "llvm_hooks.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace hooktrace {

/* Instructions that are not work the function does: the end of a block
 * (an unconditional branch, the return, unreachable), phis, and the
 * intrinsics that generate no code. */
static bool isFree(const Instruction &I)
{
    if (isa<PHINode>(I) || isa<ReturnInst>(I) || isa<UnreachableInst>(I) || isa<DbgInfoIntrinsic>(I))
        return true;
    if (const auto *branch = dyn_cast<BranchInst>(&I))
        return branch->isUnconditional();
    if (const auto *intrinsic = dyn_cast<IntrinsicInst>(&I))
        switch (intrinsic->getIntrinsicID()) {
        case Intrinsic::returnaddress:
        case Intrinsic::lifetime_start:
        case Intrinsic::lifetime_end:
        case Intrinsic::assume:
        case Intrinsic::experimental_noalias_scope_decl:
            return true;
        default:
            return false;
        }
    return false;
}

bool leaveOutIfTiny(Function &F, FunctionAnalysisManager &FAM)
{
    unsigned limit = options().maxStatements;
    if (!limit || F.isDeclaration() || F.getName() == "main")
        return false;
    const TargetLibraryInfo &TLI = FAM.getResult<TargetLibraryAnalysis>(F);
    bool hooked = false;
    unsigned statements = 0;
    for (BasicBlock &block : F)
        for (Instruction &I : block) {
            if (hookKind(I) != Hook::None) {
                if (!isOwnHook(cast<CallInst>(I), F))
                    return false; /* another function's copy */
                hooked = true;
                continue;
            }
            if (isFree(I))
                continue;
            if (const auto *call = dyn_cast<CallBase>(&I))
                if (isRealCall(*call, TLI))
                    return false;
            if (++statements > limit)
                return false;
        }
    if (!hooked || !FAM.getResult<LoopAnalysis>(F).empty())
        return false;
    removeOwnHooks(F);
    noteTiny(*F.getParent(), F.getName());
    if (options().verbose)
        errs() << "hooktrace plugin: " << F.getName() << ": tiny (" << statements << " instructions), no hooks\n";
    return true;
}

} // namespace hooktrace
