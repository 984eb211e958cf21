/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The hooks, the inlined copies' identities, the options and the sections
 * of hooktrace's LLVM plugin (llvm_hooks.h). */
#include "llvm_hooks.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Support/CommandLine.h"

#include <string>

using namespace llvm;

namespace hooktrace {

/* Given with -mllvm; clang parses -mllvm before it loads a pass plugin, so
 * the `hooktrace` prefix also names the plugin with -fplugin, which loads
 * it earlier (docs/clang.md).  A bad value is clang's option error. */
enum class InlinedMode { Count, Keep };
static cl::opt<InlinedMode> InlinedHooks(
    "hooktrace-inlined-hooks", cl::init(InlinedMode::Count),
    cl::desc("hooktrace: what the inlined copies of a function keep"),
    cl::values(clEnumValN(InlinedMode::Count, "count", "hooks, unless straight-line leaf code, which is counted"),
               clEnumValN(InlinedMode::Keep, "keep", "hooks, every one")));
static cl::opt<unsigned> MaxStatements("hooktrace-max-statements", cl::init(8),
                                       cl::desc("hooktrace: functions of at most this many instructions, "
                                                "no loop and no call lose their hooks (0: none)"));
static cl::opt<bool> Verbose("hooktrace-verbose", cl::init(false),
                             cl::desc("hooktrace: a note on stderr for each function and copy changed"));

const Options &options()
{
    static Options opts;
    opts.keepInlined = InlinedHooks == InlinedMode::Keep;
    opts.maxStatements = MaxStatements;
    opts.verbose = Verbose;
    return opts;
}

static const char enterName[] = "__cyg_profile_func_enter";
static const char exitName[] = "__cyg_profile_func_exit";
/* The runtime's entry for the counts (docs/plugin.md). */
static const char countsName[] = "hooktrace_inlined_calls_in";

/* What a marker carries besides its function: its kind, and a tag no
 * annotation a program writes has (__builtin_annotation names a string of
 * the program's, not this private global). */
static const uint64_t markEnter = 1, markExit = 2;
static const char markerTagName[] = "hooktrace.marker";
static const char idPrefix[] = "__hooktrace_inlined.";

static bool isMarker(const CallInst &call)
{
    const auto *intrinsic = dyn_cast<IntrinsicInst>(&call);
    if (!intrinsic || intrinsic->getIntrinsicID() != Intrinsic::annotation || call.arg_size() != 4)
        return false;
    const auto *tag = dyn_cast<GlobalVariable>(call.getArgOperand(2)->stripPointerCasts());
    return tag && tag->getName() == markerTagName;
}

static Constant *markerTag(Module &M)
{
    GlobalVariable *tag = M.getNamedGlobal(markerTagName);
    if (!tag) {
        Constant *text = ConstantDataArray::getString(M.getContext(), "hooktrace", true);
        tag = new GlobalVariable(M, text->getType(), true, GlobalValue::PrivateLinkage, text, markerTagName);
        tag->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    }
    return ConstantExpr::getPointerCast(tag, Type::getInt8PtrTy(M.getContext()));
}

Hook hookKind(const Instruction &I)
{
    const auto *call = dyn_cast<CallInst>(&I);
    if (!call)
        return Hook::None;
    if (isMarker(*call)) {
        const auto *kind = dyn_cast<ConstantInt>(call->getArgOperand(0));
        if (kind && kind->getZExtValue() == markEnter)
            return Hook::Enter;
        return kind && kind->getZExtValue() == markExit ? Hook::Exit : Hook::None;
    }
    const Function *callee = call->getCalledFunction();
    if (!callee || call->arg_size() != 2)
        return Hook::None;
    if (callee->getName() == enterName)
        return Hook::Enter;
    if (callee->getName() == exitName)
        return Hook::Exit;
    return Hook::None;
}

StringRef hookedName(const CallInst &hook)
{
    if (isMarker(hook)) {
        const auto *id = dyn_cast<GlobalVariable>(hook.getArgOperand(1)->stripPointerCasts());
        return id && id->getName().startswith(idPrefix) ? id->getName().drop_front(sizeof idPrefix - 1) : "";
    }
    const auto *F = dyn_cast<Function>(hook.getArgOperand(0)->stripPointerCasts());
    return F ? F->getName() : "";
}

bool isOwnHook(const CallInst &hook, const Function &F)
{
    const DILocation *at = hook.getDebugLoc().get();
    return hookedName(hook) == F.getName() && !(at && at->getInlinedAt());
}

bool hideHooks(Function &F)
{
    Module &M = *F.getParent();
    LLVMContext &context = M.getContext();
    bool hidden = false;
    for (BasicBlock &block : F)
        for (Instruction &I : make_early_inc_range(block)) {
            Hook kind = hookKind(I);
            auto *hook = dyn_cast<CallInst>(&I);
            if (kind == Hook::None || isMarker(*hook) || hookedName(*hook).empty())
                continue;
            Type *i64 = Type::getInt64Ty(context);
            IRBuilder<> at(hook);
            CallInst *marker = at.CreateCall(
                Intrinsic::getDeclaration(&M, Intrinsic::annotation, {i64}),
                {ConstantInt::get(i64, kind == Hook::Enter ? markEnter : markExit),
                 inlinedId(M, hookedName(*hook), Type::getInt8PtrTy(context)), markerTag(M),
                 ConstantInt::get(Type::getInt32Ty(context), 0)});
            /* Not a barrier to the program's loads and stores (the hooks
             * read nothing of the program's), but kept in order with every
             * call that may touch what the program cannot see: MPI, OpenMP,
             * I/O, the other markers. */
            marker->addFnAttr(Attribute::InaccessibleMemOnly);
            marker->setDebugLoc(hook->getDebugLoc());
            hook->eraseFromParent();
            hidden = true;
        }
    if (hidden)
        removeUnusedReturnAddresses(F);
    return hidden;
}

/* llvm.returnaddress (0) of F, at its entry, which dominates every hook. */
static Value *returnAddress(Function &F)
{
    BasicBlock &entry = F.getEntryBlock();
    for (Instruction &I : entry)
        if (auto *intrinsic = dyn_cast<IntrinsicInst>(&I))
            if (intrinsic->getIntrinsicID() == Intrinsic::returnaddress)
                return intrinsic;
    IRBuilder<> at(&entry, entry.getFirstInsertionPt());
    return at.CreateCall(Intrinsic::getDeclaration(F.getParent(), Intrinsic::returnaddress), {at.getInt32(0)});
}

CallInst *revealHook(CallInst &hook, Constant *named)
{
    Type *pointer = Type::getInt8PtrTy(hook.getContext());
    if (!isMarker(hook)) {
        hook.setArgOperand(0, ConstantExpr::getPointerCast(named, hook.getArgOperand(0)->getType()));
        return &hook;
    }
    Function &F = *hook.getFunction();
    FunctionCallee function = F.getParent()->getOrInsertFunction(
        hookKind(hook) == Hook::Enter ? enterName : exitName,
        FunctionType::get(Type::getVoidTy(hook.getContext()), {pointer, pointer}, false));
    Value *site = returnAddress(F);
    IRBuilder<> at(&hook);
    CallInst *call = at.CreateCall(function, {ConstantExpr::getPointerCast(named, pointer), site});
    call->setDebugLoc(hook.getDebugLoc());
    hook.eraseFromParent();
    return call;
}

bool removeOwnHooks(Function &F)
{
    bool removed = false;
    for (BasicBlock &block : F)
        for (Instruction &I : make_early_inc_range(block))
            if (hookKind(I) != Hook::None && isOwnHook(cast<CallInst>(I), F)) {
                I.eraseFromParent();
                removed = true;
            }
    if (removed)
        removeUnusedReturnAddresses(F);
    return removed;
}

void removeUnusedReturnAddresses(Function &F)
{
    for (BasicBlock &block : F)
        for (Instruction &I : make_early_inc_range(block))
            if (auto *intrinsic = dyn_cast<IntrinsicInst>(&I))
                if (intrinsic->getIntrinsicID() == Intrinsic::returnaddress && I.use_empty())
                    I.eraseFromParent();
}

Constant *inlinedId(Module &M, StringRef linkageName, Type *pointerType)
{
    std::string name = (idPrefix + linkageName).str();
    GlobalVariable *id = M.getNamedGlobal(name);
    if (!id) {
        Constant *text = ConstantDataArray::getString(M.getContext(), linkageName, true);
        id = new GlobalVariable(M, text->getType(), true, GlobalValue::LinkOnceODRLinkage, text, name);
        id->setVisibility(GlobalValue::HiddenVisibility);
        id->setSection(".hooktrace.inlined_ids");
        id->setComdat(M.getOrInsertComdat(name));
        id->setAlignment(Align(1));
    }
    return ConstantExpr::getPointerCast(id, pointerType);
}

void removeUnusedIds(Module &M)
{
    for (GlobalVariable &id : make_early_inc_range(M.globals()))
        if (id.getName().startswith(idPrefix)) {
            id.removeDeadConstantUsers();
            if (id.use_empty())
                id.eraseFromParent();
        }
}

/* The lists live in named metadata until the module's end: the passes that
 * fill them run per function, and under -flto the compile's pipeline ends
 * before the link's starts. */
static const char tinyList[] = "hooktrace.tiny";
static const char countedList[] = "hooktrace.counted";

void noteTiny(Module &M, StringRef linkageName)
{
    LLVMContext &context = M.getContext();
    M.getOrInsertNamedMetadata(tinyList)->addOperand(MDNode::get(context, MDString::get(context, linkageName)));
}

void noteCountedSites(Module &M, StringRef linkageName, unsigned sites)
{
    LLVMContext &context = M.getContext();
    Metadata *entry[] = {MDString::get(context, linkageName),
                         ConstantAsMetadata::get(ConstantInt::get(Type::getInt64Ty(context), sites))};
    M.getOrInsertNamedMetadata(countedList)->addOperand(MDNode::get(context, entry));
}

/* Top-level assembler, as the GCC plugin's first rule writes: it survives
 * -flto with the module, and the sections are never loaded.  Names are
 * linkage names, which hold no quote or backslash.  No .hooktrace.plugin
 * marker: the run's advice on throttled functions takes it for the GCC
 * plugin, whose exclude-file this plugin does not read. */
void writeSections(Module &M)
{
    std::string text;
    if (NamedMDNode *tiny = M.getNamedMetadata(tinyList)) {
        StringSet<> seen;
        text += "\t.pushsection .hooktrace.uninstrumented,\"\",@progbits\n";
        for (MDNode *entry : tiny->operands()) {
            StringRef name = cast<MDString>(entry->getOperand(0))->getString();
            if (seen.insert(name).second)
                text += "\t.asciz \"" + name.str() + "\"\n";
        }
        text += "\t.popsection\n";
        tiny->eraseFromParent();
    }
    if (NamedMDNode *counted = M.getNamedMetadata(countedList)) {
        /* One "SITES NAME" string per function and object. */
        StringMap<uint64_t> sites;
        std::vector<std::string> order;
        for (MDNode *entry : counted->operands()) {
            StringRef name = cast<MDString>(entry->getOperand(0))->getString();
            uint64_t n = mdconst::extract<ConstantInt>(entry->getOperand(1))->getZExtValue();
            if (sites.find(name) == sites.end())
                order.push_back(name.str());
            sites[name] += n;
        }
        text += "\t.pushsection .hooktrace.inlined,\"\",@progbits\n";
        for (const std::string &name : order)
            text += "\t.asciz \"" + std::to_string(sites[name]) + " " + name + "\"\n";
        text += "\t.popsection\n";
        counted->eraseFromParent();
    }
    if (!text.empty())
        M.appendModuleInlineAsm(text);
}

/* The C library's maths, whose calls GCC treats as const or pure builtins
 * and clang leaves as calls where errno may be set (-fmath-errno). */
static bool isMaths(StringRef name)
{
    static const StringSet<> names = {"sqrt", "cbrt",  "exp",   "exp2",  "expm1", "log",      "log2",
                                      "log10", "log1p", "pow",  "sin",   "cos",   "tan",      "asin",
                                      "acos", "atan",  "atan2", "sinh",  "cosh",  "tanh",     "fabs",
                                      "floor", "ceil", "round", "trunc", "rint",  "nearbyint", "fmod",
                                      "fmin", "fmax",  "hypot", "copysign", "ldexp", "erf",   "erfc"};
    if (names.count(name))
        return true;
    return (name.endswith("f") || name.endswith("l")) && names.count(name.drop_back());
}

bool isRealCall(const CallBase &call, const TargetLibraryInfo &TLI)
{
    if (call.isInlineAsm())
        return false;
    const auto *callee = dyn_cast<Function>(call.getCalledOperand()->stripPointerCasts());
    if (!callee)
        return true; /* indirect or virtual */
    if (callee->isIntrinsic())
        return false;
    StringRef name = callee->getName();
    if (name == enterName || name == exitName || name == countsName)
        return false;
    if (call.doesNotReturn() || callee->doesNotReturn())
        return false;
    LibFunc libFunc;
    if (TLI.getLibFunc(*callee, libFunc) && TLI.has(libFunc) && isMaths(name))
        return false;
    /* What a throw or an abort path calls before it ends (allocating the
     * exception, formatting the message): the block ends in unreachable. */
    return !isa<UnreachableInst>(call.getParent()->getTerminator());
}

} // namespace hooktrace
