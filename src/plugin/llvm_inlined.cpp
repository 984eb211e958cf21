/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Inlined copies after inlining (docs/clang.md): clang's
 * -finstrument-functions puts the hooks into every function before the
 * inliner runs, and the plugin hides them from the inliner as markers
 * naming F's id (llvm_hooks.h), so each copy the inliner makes of F
 * carries a marker pair naming F.  Once inlining is over, the function's
 * own markers become its hooks again, naming &F, and for each copy:
 *
 *   - a copy that holds a loop whose trip count is not a constant below 16,
 *     or a call that stays a call (not an intrinsic, the C library's maths,
 *     a noreturn call or the hooks; an OpenMP fork, MPI, a function not
 *     inlined), keeps its hooks, which pass F's inlined-copy id
 *     (inlinedId) instead of &F: F's own body may be gone;
 *   - a straight-line leaf copy loses its hooks and becomes a count: an
 *     i64 local per (scope, F) that each pass through the copy increments
 *     and that is handed to hooktrace_inlined_calls (ID, count), when not
 *     zero, before each exit hook of its scope: the innermost enclosing copy
 *     that keeps its hooks, or the function itself (its exit hooks, or its
 *     returns when it has none, and its resumes).  The runtime adds the
 *     count to the child ID of the node the scope is, per thread.
 *
 * A copy and its extent come from the debug information (the prefix adds
 * -g): the inliner gives each call site it inlines a distinct DILocation,
 * which every instruction of the copy names in its inlinedAt chain, the
 * markers included (theirs is F's scope line: F's subprogram, by its
 * linkage name, must be the one the marker names).  Code the optimiser duplicated after inlining (unrolled
 * loops, threaded jumps) names the same site and is the same copy, with as
 * many entry hooks as copies made: each counts.  A loop belongs to a copy
 * when it holds some of the copy's instructions but none of its entry
 * hooks: a copy inside its caller's loop has its entry hook in it.  Loops
 * the optimiser unrolled completely before this point are no loops.
 *
 * Where the debug information cannot tell (no -g, or two copies' identical
 * hook calls merged into one with a location in neither), every copy of
 * that function keeps its hooks in that function, renamed: what is
 * recorded stays balanced, it only costs what -finstrument-functions
 * costs. */
#include "llvm_hooks.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

#include <map>
#include <string>

using namespace llvm;

namespace hooktrace {

namespace {

/* A loop of at most this many trips known at compile time (over the 3
 * coordinates, the 8 nodes of a hexahedron) is a helper's, not a kernel's,
 * as for the GCC plugin. */
const unsigned fixedTripsLimit = 16;

/* Set on a function once its copies are rewritten: the pass runs before
 * the vectoriser where clang's pipeline has that point, and at its end for
 * the functions it has not seen (-O0, ThinLTO's compile). */
const char doneAttribute[] = "hooktrace-inlined-done";

struct Copy {
    const DILocation *site = nullptr; /* the call site it was inlined at */
    std::string callee; /* the linkage name of the function copied */
    SmallVector<CallInst *, 2> enters, exits;
    bool leaf = true;
    std::string kept; /* why it keeps its hooks */
    const Copy *scope = nullptr; /* where a leaf copy is counted; null: the function */
};

class Rewriter {
public:
    Rewriter(Function &F, FunctionAnalysisManager &FAM) : F(F), FAM(FAM), M(*F.getParent()) {}
    bool run();

private:
    Function &F;
    FunctionAnalysisManager &FAM;
    Module &M;
    MapVector<const DILocation *, Copy> copies;
    StringSet<> unplaced;              /* functions with a hook no copy owns */
    SmallVector<CallInst *, 4> strays; /* those hooks */
    SmallVector<CallInst *, 2> ownEnters, ownExits;
    /* In the order the copies come, not of addresses: the same source
     * must compile to the same code. */
    using Counted = std::pair<const Copy *, std::string>;
    MapVector<Counted, AllocaInst *, std::map<Counted, unsigned>> counters;

    void collect();
    template <typename Fn> void forEachCopyHolding(const Instruction &I, Fn fn);
    void judgeCalls();
    void judgeLoops();
    void decide();
    CallInst *rename(CallInst &hook);
    AllocaInst *counter(const Copy &copy);
    void flush(Instruction &before, AllocaInst *count, StringRef callee, Constant *scope);
    void revealOwn();
    void note(const Copy &copy) const;
};

void Rewriter::collect()
{
    for (BasicBlock &block : F)
        for (Instruction &I : block) {
            Hook kind = hookKind(I);
            if (kind == Hook::None)
                continue;
            auto *hook = cast<CallInst>(&I);
            StringRef callee = hookedName(*hook);
            if (callee.empty())
                continue; /* already an id */
            if (isOwnHook(*hook, F)) {
                (kind == Hook::Enter ? ownEnters : ownExits).push_back(hook);
                continue;
            }
            /* The hook's location is the copied function's scope line, with
             * the copy's call site as its inlinedAt. */
            const DILocation *at = hook->getDebugLoc().get();
            const DISubprogram *sp = at ? at->getScope()->getSubprogram() : nullptr;
            if (at && at->getInlinedAt() && sp &&
                (sp->getLinkageName().empty() ? sp->getName() : sp->getLinkageName()) == callee) {
                Copy &copy = copies[at->getInlinedAt()];
                if (!copy.callee.empty() && copy.callee != callee) {
                    unplaced.insert(copy.callee);
                    unplaced.insert(callee);
                }
                copy.site = at->getInlinedAt();
                copy.callee = callee.str();
                (kind == Hook::Enter ? copy.enters : copy.exits).push_back(hook);
            } else {
                unplaced.insert(callee);
                strays.push_back(hook);
            }
        }
}

/* fn(copy) for every copy I belongs to, innermost first. */
template <typename Fn> void Rewriter::forEachCopyHolding(const Instruction &I, Fn fn)
{
    const DILocation *at = I.getDebugLoc().get();
    for (const DILocation *site = at ? at->getInlinedAt() : nullptr; site; site = site->getInlinedAt()) {
        auto found = copies.find(site);
        if (found != copies.end())
            fn(found->second);
    }
}

void Rewriter::judgeCalls()
{
    const TargetLibraryInfo &TLI = FAM.getResult<TargetLibraryAnalysis>(F);
    for (BasicBlock &block : F)
        for (Instruction &I : block) {
            const auto *call = dyn_cast<CallBase>(&I);
            if (!call || hookKind(I) != Hook::None || !isRealCall(*call, TLI))
                continue;
            forEachCopyHolding(I, [&](Copy &copy) {
                if (!copy.leaf)
                    return;
                copy.leaf = false;
                const Function *callee = call->getCalledFunction();
                copy.kept = "calls " + (callee ? callee->getName().str() : std::string("through a pointer"));
            });
        }
}

void Rewriter::judgeLoops()
{
    LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
    if (LI.empty())
        return;
    ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
    for (Loop *loop : LI.getLoopsInPreorder()) {
        unsigned trips = SE.getSmallConstantTripCount(loop);
        if (trips != 0 && trips < fixedTripsLimit)
            continue;
        SmallPtrSet<Copy *, 8> holding;
        for (BasicBlock *block : loop->blocks())
            for (Instruction &I : *block)
                forEachCopyHolding(I, [&](Copy &copy) {
                    if (copy.leaf)
                        holding.insert(&copy);
                });
        for (Copy *copy : holding) {
            bool around = false; /* the loop is its caller's, around it */
            for (CallInst *enter : copy->enters)
                around |= loop->contains(enter->getParent());
            if (!around) {
                copy->leaf = false;
                copy->kept = "a loop";
                if (const DILocation *at = loop->getStartLoc().get())
                    copy->kept += " at line " + std::to_string(at->getLine());
            }
        }
    }
}

void Rewriter::decide()
{
    for (auto &entry : copies) {
        Copy &copy = entry.second;
        if (options().keepInlined) {
            copy.leaf = false;
            copy.kept = "-hooktrace-inlined-hooks=keep";
        } else if (unplaced.count(copy.callee)) {
            copy.leaf = false;
            copy.kept = "a hook of a copy of it is not placed in one";
        } else if (copy.callee == "main") {
            copy.leaf = false;
            copy.kept = "main";
        }
    }
    /* A leaf copy's count goes to the innermost copy around it that keeps
     * hooks it can be handed over before (placed ones, with an exit). */
    for (auto &entry : copies) {
        Copy &copy = entry.second;
        if (!copy.leaf)
            continue;
        for (const DILocation *site = copy.site->getInlinedAt(); site && !copy.scope; site = site->getInlinedAt()) {
            auto found = copies.find(site);
            if (found != copies.end() && !found->second.leaf && !unplaced.count(found->second.callee) &&
                !found->second.exits.empty())
                copy.scope = &found->second;
        }
    }
}

/* The hook call of an inlined copy, naming its function's id. */
CallInst *Rewriter::rename(CallInst &hook)
{
    return revealHook(hook, inlinedId(M, hookedName(hook), Type::getInt8PtrTy(M.getContext())));
}

/* The function's own hooks, naming it. */
void Rewriter::revealOwn()
{
    for (CallInst *hook : ownEnters)
        revealHook(*hook, &F);
    for (CallInst *hook : ownExits)
        revealHook(*hook, &F);
}

AllocaInst *Rewriter::counter(const Copy &copy)
{
    AllocaInst *&count = counters[{copy.scope, copy.callee}];
    if (!count) {
        IRBuilder<> entry(&F.getEntryBlock(), F.getEntryBlock().getFirstInsertionPt());
        Type *type = M.getDataLayout().getIntPtrType(M.getContext());
        count = entry.CreateAlloca(type, nullptr, "hooktrace.count");
        entry.CreateStore(ConstantInt::get(type, 0), count);
    }
    return count;
}

/* if (count != 0) hooktrace_inlined_calls_in (ID, count, SCOPE); count = 0.
 * SCOPE: the id the exit hook that follows passes (the run time drops the
 * counts while that scope is throttled), or null before a return or a
 * resume without one. */
void Rewriter::flush(Instruction &before, AllocaInst *count, StringRef callee, Constant *scope)
{
    LLVMContext &context = M.getContext();
    Type *type = count->getAllocatedType();
    Type *pointer = Type::getInt8PtrTy(context);
    FunctionCallee handOver = M.getOrInsertFunction(
        "hooktrace_inlined_calls_in", FunctionType::get(Type::getVoidTy(context), {pointer, type, pointer}, false));
    if (auto *declared = dyn_cast<Function>(handOver.getCallee()))
        declared->addFnAttr(Attribute::NoUnwind);
    IRBuilder<> at(&before);
    Value *n = at.CreateLoad(type, count);
    at.CreateStore(ConstantInt::get(type, 0), count);
    Instruction *then = SplitBlockAndInsertIfThen(at.CreateICmpNE(n, ConstantInt::get(type, 0)), &before, false);
    IRBuilder<> call(then);
    Constant *scopeId = scope ? ConstantExpr::getPointerCast(scope, pointer) : ConstantPointerNull::get(cast<PointerType>(pointer));
    CallInst *made = call.CreateCall(handOver, {inlinedId(M, callee, pointer), n, scopeId});
    made->setDoesNotThrow();
    made->setDebugLoc(before.getDebugLoc());
}

void Rewriter::note(const Copy &copy) const
{
    errs() << "hooktrace plugin: " << F.getName() << ": copy of " << copy.callee << " inlined at line "
           << copy.site->getLine() << ": ";
    if (!copy.leaf)
        errs() << "keeps its hooks (" << copy.kept << ")\n";
    else
        errs() << "counted in " << (copy.scope ? StringRef(copy.scope->callee) : F.getName()) << "\n";
}

bool Rewriter::run()
{
    collect();
    if (copies.empty() && strays.empty()) {
        revealOwn();
        return !ownEnters.empty() || !ownExits.empty();
    }
    judgeCalls();
    judgeLoops();
    decide();
    for (CallInst *hook : strays)
        rename(*hook);
    MapVector<std::string, unsigned, std::map<std::string, unsigned>> sites;
    for (auto &entry : copies) {
        Copy &copy = entry.second;
        if (options().verbose)
            note(copy);
        if (!copy.leaf) {
            for (CallInst *&hook : copy.enters)
                hook = rename(*hook);
            for (CallInst *&hook : copy.exits)
                hook = rename(*hook); /* the exits a leaf copy inside it counts before */
            continue;
        }
        for (CallInst *hook : copy.enters) {
            AllocaInst *count = counter(copy);
            IRBuilder<> at(hook);
            Value *n = at.CreateLoad(count->getAllocatedType(), count);
            at.CreateStore(at.CreateAdd(n, ConstantInt::get(n->getType(), 1)), count);
            hook->eraseFromParent();
        }
        for (CallInst *hook : copy.exits)
            hook->eraseFromParent();
        sites[copy.callee] += copy.enters.size();
    }
    /* Where each scope hands its counts over; the function's own exits
     * are its exit hooks, or its returns when it has none (an OpenMP task
     * entry, a function clang was told not to instrument), and its
     * resumes: clang calls no exit hook when an exception leaves. */
    SmallVector<Instruction *, 4> functionExits(ownExits.begin(), ownExits.end());
    for (BasicBlock &block : F) {
        Instruction *end = block.getTerminator();
        if (isa<ResumeInst>(end))
            functionExits.push_back(end);
        else if (ownExits.empty() && isa<ReturnInst>(end))
            /* Nothing may come between a musttail call and its return. */
            functionExits.push_back(block.getTerminatingMustTailCall() ? block.getTerminatingMustTailCall() : end);
    }
    SmallVector<AllocaInst *, 4> promoted;
    for (auto &entry : counters) {
        const Copy *scope = entry.first.first;
        Type *pointer = Type::getInt8PtrTy(M.getContext());
        if (scope)
            for (CallInst *exit : scope->exits)
                flush(*exit, entry.second, entry.first.second, inlinedId(M, scope->callee, pointer));
        else
            for (Instruction *exit : functionExits)
                flush(*exit, entry.second, entry.first.second, isa<CallInst>(exit) && hookKind(*exit) != Hook::None ? &F : nullptr);
        promoted.push_back(entry.second);
    }
    revealOwn();
    if (!promoted.empty()) {
        DominatorTree tree(F);
        PromoteMemToReg(promoted, tree);
    }
    removeUnusedReturnAddresses(F);
    for (auto &entry : sites)
        if (entry.second)
            noteCountedSites(M, entry.first, entry.second);
    return true;
}

} // namespace

bool rewriteInlinedCopies(Function &F, FunctionAnalysisManager &FAM)
{
    if (F.isDeclaration() || F.hasFnAttribute(doneAttribute))
        return false;
    F.addFnAttr(doneAttribute);
    return Rewriter(F, FAM).run();
}

} // namespace hooktrace
