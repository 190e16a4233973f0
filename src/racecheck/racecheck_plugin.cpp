// racecheck_plugin.cpp - xwg-racecheck's Oclgrind plugin: finds the
// accesses to global memory that no barrier orders, in kernels that use
// xwg's global barrier.
//
// Oclgrind loads it through OCLGRIND_PLUGINS (src/racecheck/xwg_racecheck.py
// sets that). Its model of ordering, per kernel invocation:
//
// - Every work-item counts the grid-wide synchronisations it has entered
//   (E): xwg_barrier(), every collective, and the wait of the split
//   barrier or of a nonblocking all-reduce. Between an arrive and its
//   wait an access belongs to both intervals, E and E + 1. Two accesses by different groups are ordered
//   exactly when their intervals do not overlap: accesses before the
//   k-th synchronisation of every group happen-before those after it.
// - Within a group, OpenCL's barrier() orders its work-items too: each
//   group counts its completed work-group barriers (L), and two accesses
//   by work-items of one group are ordered when their L differ (xwg's
//   synchronisations hold work-group barriers, so they count there too).
// - Two accesses conflict when they touch the same byte, at least one is
//   a plain write, and not both are atomic. A conflict that neither rule
//   orders is a race.
// - The user's own atomics are not taken as synchronisation: Oclgrind's
//   callbacks carry no memory order or scope, so a flag written relaxed
//   and one written with release look the same. A race whose earlier
//   work-item made an atomic access after its access (a possible release)
//   and whose later work-item made one earlier in its interval (a possible
//   acquire) is reported in a class of its own, "atomics-only": ordered,
//   if at all, by the kernel's own atomics, which the checker cannot
//   verify (docs/guide.md, "Finding a missing barrier").
//
// Everything that xwg's kernel-side library does itself is left out: the
// library's own kernels (named xwg*), the accesses made inside its
// functions (named xwg*), and the state buffer. Oclgrind runs the kernel
// without inlining, so a library call is a call of its function.
//
// A group's work-items all make the same synchronisations; a group whose
// work-items made different numbers of them is reported as divergent
// (Oclgrind itself also reports the work-group barrier inside the call
// that some work-items did not reach).
//
// Reports go, one JSON object a line, to the file that XWG_RACECHECK_REPORT
// names, once per kernel invocation; the CLI groups and prints them.
#include <oclgrind/Context.h>
#include <oclgrind/Kernel.h>
#include <oclgrind/KernelInvocation.h>
#include <oclgrind/Memory.h>
#include <oclgrind/Plugin.h>
#include <oclgrind/Program.h>
#include <oclgrind/WorkGroup.h>
#include <oclgrind/WorkItem.h>

#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace
{

// What a function of the kernel is to the checker.
enum class FnKind
{
  User,    // the user's own code: its accesses are checked
  Library, // xwg's, not a synchronisation: its accesses are not
  Sync,    // xwg_barrier() or a collective: a grid-wide synchronisation
  Arrive,  // the split barrier's arrive
  Wait,    // the split barrier's wait
};

bool starts_with(const std::string& s, const char* p)
{
  return s.compare(0, strlen(p), p) == 0;
}

bool ends_with(const std::string& s, const char* p)
{
  size_t n = strlen(p);
  return s.size() >= n && s.compare(s.size() - n, n, p) == 0;
}

FnKind classify(const llvm::Function* f)
{
  const std::string name = f->getName().str();
  if (!starts_with(name, "xwg"))
    return FnKind::User;
  if (name == "xwg_barrier_of")
    return FnKind::Sync;
  // The nonblocking all-reduce's halves are the split barrier's: between
  // them, an access belongs to both intervals.
  if (name == "xwg_barrier_arrive_of" ||
      (starts_with(name, "xwg_reduce_") && ends_with(name, "_arrive_of")))
    return FnKind::Arrive;
  if (name == "xwg_barrier_wait_of" ||
      (starts_with(name, "xwg_reduce_") && ends_with(name, "_wait_of")))
    return FnKind::Wait;
  if (ends_with(name, "_of") &&
      (starts_with(name, "xwg_reduce_") || starts_with(name, "xwg_scan_") ||
       starts_with(name, "xwg_broadcast_")))
    return FnKind::Sync;
  return FnKind::Library;
}

// A source location: the line as the build log numbers it (xwg's prefix
// ends in #line 1, so the user's own lines), and the file.
struct Where
{
  unsigned line = 0;
  std::string file;
};

Where where(const llvm::Instruction* inst)
{
  Where w;
  if (inst == nullptr)
    return w;
  if (const llvm::DILocation* loc = inst->getDebugLoc().get()) {
    w.line = loc->getLine();
    w.file = loc->getFilename().str();
  }
  return w;
}

// One work-item's place in the kernel: E, the split barrier's pending
// arrival, how deep it is inside the library, its synchronisations so far,
// and the call of the last one (the interval's opening bound).
struct ItemState
{
  unsigned epoch = 0;
  bool pending = false;
  unsigned depth = 0;
  unsigned syncs = 0;
  unsigned opened_at = 0; // line of the call that opened the interval; 0: start
  unsigned atomics = 0;           // its atomic accesses in the user's code
  unsigned atomics_at_opened = 0; // atomics when the interval opened
};

// One access, as the shadow of a byte keeps it.
struct Access
{
  size_t group = 0, item = 0;   // OpenCL group index, local linear id
  size_t global = 0;            // the work-item's global linear index
  unsigned syncs = 0;           // its synchronisations before it
  unsigned atomics = 0;         // its atomic accesses before this one
  bool acquired = false;        // one of them in this interval
  unsigned lo = 0, hi = 0;      // the grid intervals it belongs to
  size_t local_barriers = 0;    // L of its group when it was made
  bool write = false, atomic = false;
  const llvm::Instruction* inst = nullptr;
  unsigned opened_at = 0;
};

struct Shadow
{
  bool has_write = false;
  Access write;
  std::vector<Access> reads; // the latest read of each group since it
};

// A reported race, keyed by its pair of instructions.
struct Race
{
  bool atomics_only = false; // see the header: the "atomics-only" class
  Access first, second;
  size_t buffer = 0, lo = 0, hi = 0; // byte offsets within the buffer
  unsigned count = 0;
};

bool conflict(const Access& a, const Access& b)
{
  if (!a.write && !b.write)
    return false;
  if (a.atomic && b.atomic)
    return false;
  if (a.group == b.group)
    return a.item != b.item && a.local_barriers == b.local_barriers;
  return a.lo <= b.hi && b.lo <= a.hi;
}

std::string json_string(const std::string& s)
{
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (static_cast<unsigned char>(c) >= 0x20)
      out += c;
  }
  return out + "\"";
}

class RaceCheck : public oclgrind::Plugin
{
public:
  explicit RaceCheck(const oclgrind::Context* context)
      : oclgrind::Plugin(context)
  {
    const char* path = getenv("XWG_RACECHECK_REPORT");
    m_out = path ? fopen(path, "a") : nullptr;
  }

  ~RaceCheck() override
  {
    if (m_out)
      fclose(m_out);
  }

  bool isThreadSafe() const override { return true; }

  void kernelBegin(const oclgrind::KernelInvocation* inv) override
  {
    const oclgrind::Kernel* k = inv->getKernel();
    std::lock_guard<std::mutex> lock(m_mutex);
    m_kernel = k->getName();
    m_checked = !starts_with(m_kernel, "xwg");
    m_invocation++;
    m_shadow.clear();
    m_races.clear();
    m_divergent.clear();
    m_group_syncs.clear();
    m_local_barriers.clear();
    m_buffer_names.clear();
    m_ignored_buffers.clear();
    m_atomics.clear();
    m_sync_lines.clear();
    m_active_groups.clear();
    // xwg's prefix ends in "#line 1": the user's line L is the source's
    // physical line m_first_line + L - 1.
    const std::string& text = k->getProgram()->getSource();
    const size_t mark = text.rfind("\n#line 1\n");
    m_first_line = 1;
    if (mark != std::string::npos)
      m_first_line += std::count(text.begin(), text.begin() + mark + 9, '\n');
    m_program = k->getProgram();
    // Name each buffer argument, and leave out xwg's state buffer (its
    // parameter, XWG_STATE, is named xwg__...).
    const oclgrind::Memory* global = m_context->getGlobalMemory();
    for (auto v = k->values_begin(); v != k->values_end(); ++v) {
      const auto* arg = llvm::dyn_cast<llvm::Argument>(v->first);
      if (arg == nullptr || !arg->getType()->isPointerTy() ||
          arg->getType()->getPointerAddressSpace() != 1)
        continue;
      const size_t buffer = global->extractBuffer(v->second.getPointer());
      const std::string name = arg->getName().str();
      m_buffer_names[buffer] = name;
      if (starts_with(name, "xwg"))
        m_ignored_buffers.push_back(buffer);
    }
  }

  void kernelEnd(const oclgrind::KernelInvocation*) override
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    if (!m_checked || m_out == nullptr)
      return;
    for (const auto& r : m_races)
      write_race(r.second);
    for (const auto& d : m_divergent)
      fprintf(m_out,
              "{\"kind\":\"divergent\",\"kernel\":%s,\"group\":%zu,"
              "\"detail\":%s}\n",
              json_string(m_kernel).c_str(), d.first,
              json_string(d.second).c_str());
    // Groups that took part: those that touched the user's buffers (an
    // NDRange may hold groups that discovery turned away at once).
    fprintf(m_out, "{\"kind\":\"checked\",\"kernel\":%s,\"groups\":%zu}\n",
            json_string(m_kernel).c_str(), m_active_groups.size());
    fflush(m_out);
  }

  void instructionExecuted(const oclgrind::WorkItem* wi,
                           const llvm::Instruction* inst,
                           const oclgrind::TypedValue&) override
  {
    if (!m_checked)
      return;
    const llvm::Function* f = inst->getFunction();
    const FnKind kind = kind_of(f);
    if (kind == FnKind::User)
      return;
    ItemState& s = item(wi);
    if (inst == &f->getEntryBlock().front()) {
      if (s.depth++ == 0 && kind != FnKind::Library)
        enter_sync(wi, s, kind);
    } else if (llvm::isa<llvm::ReturnInst>(inst) && s.depth > 0) {
      s.depth--;
    }
  }

  void workGroupBarrier(const oclgrind::WorkGroup* wg, uint32_t) override
  {
    if (!m_checked)
      return;
    std::lock_guard<std::mutex> lock(m_mutex);
    m_local_barriers[wg->getGroupIndex()]++;
  }

  void workItemComplete(const oclgrind::WorkItem* wi) override
  {
    if (!m_checked)
      return;
    const size_t group = wi->getWorkGroup()->getGroupIndex();
    const ItemState& s = item(wi);
    std::lock_guard<std::mutex> lock(m_mutex);
    Reached& r = m_group_syncs[group][s.syncs];
    r.items++;
    r.last_line = s.opened_at;
  }

  void workGroupComplete(const oclgrind::WorkGroup* wg) override
  {
    if (!m_checked)
      return;
    std::lock_guard<std::mutex> lock(m_mutex);
    auto it = m_group_syncs.find(wg->getGroupIndex());
    if (it == m_group_syncs.end())
      return;
    if (it->second.size() > 1) {
      std::string detail;
      for (const auto& c : it->second)
        detail += (detail.empty() ? "" : "; ") +
                  std::to_string(c.second.items) + " work-items made " +
                  std::to_string(c.first) + " xwg synchronisations" +
                  (c.first ? ", the last called at line " +
                                 std::to_string(c.second.last_line)
                           : "");
      m_divergent.emplace_back(it->first, detail);
    }
    m_group_syncs.erase(it);
  }

  void memoryLoad(const oclgrind::Memory* m, const oclgrind::WorkItem* wi,
                  size_t address, size_t size) override
  {
    access(m, wi, address, size, false, false);
  }

  void memoryStore(const oclgrind::Memory* m, const oclgrind::WorkItem* wi,
                   size_t address, size_t size, const uint8_t*) override
  {
    access(m, wi, address, size, true, false);
  }

  void memoryAtomicLoad(const oclgrind::Memory* m,
                        const oclgrind::WorkItem* wi, oclgrind::AtomicOp,
                        size_t address, size_t size) override
  {
    access(m, wi, address, size, false, true);
  }

  void memoryAtomicStore(const oclgrind::Memory* m,
                         const oclgrind::WorkItem* wi, oclgrind::AtomicOp,
                         size_t address, size_t size) override
  {
    access(m, wi, address, size, true, true);
  }

private:
  // Per worker thread: a group runs on one thread from start to end, so
  // its work-items' states need no lock. Both maps are dropped at a new
  // invocation: a freed program's llvm::Function may share its address
  // with one of the next program, and a stale kind would hide a kernel.
  struct ThreadItems
  {
    unsigned invocation = 0;
    std::unordered_map<size_t, ItemState> items;
    std::unordered_map<const llvm::Function*, FnKind> kinds;
  };

  ThreadItems& thread_items()
  {
    static thread_local ThreadItems t;
    if (t.invocation != m_invocation) {
      t.invocation = m_invocation;
      t.items.clear();
      t.kinds.clear();
    }
    return t;
  }

  FnKind kind_of(const llvm::Function* f)
  {
    auto& kinds = thread_items().kinds;
    auto it = kinds.find(f);
    if (it != kinds.end())
      return it->second;
    return kinds[f] = classify(f);
  }

  ItemState& item(const oclgrind::WorkItem* wi)
  {
    return thread_items().items[wi->getGlobalIndex()];
  }

  // A work-item enters xwg_barrier(), a collective, or a split-barrier
  // half: the interval it is in changes.
  void enter_sync(const oclgrind::WorkItem* wi, ItemState& s, FnKind kind)
  {
    s.syncs++;
    s.atomics_at_opened = s.atomics;
    const auto& calls = wi->getCallStack();
    s.opened_at = calls.empty() ? 0 : where(calls.top()).line;
    {
      // The line of the group's s.syncs-th synchronisation: the closing
      // bound of the interval before it (every item of a correct group
      // makes the same calls; the first to arrive names it).
      std::lock_guard<std::mutex> lock(m_mutex);
      m_sync_lines[wi->getWorkGroup()->getGroupIndex()].emplace(s.syncs,
                                                                s.opened_at);
    }
    if (kind == FnKind::Arrive) {
      s.pending = true;
    } else {
      s.epoch++;
      s.pending = false;
    }
  }

  void access(const oclgrind::Memory* m, const oclgrind::WorkItem* wi,
              size_t address, size_t size, bool write, bool atomic)
  {
    if (!m_checked || wi == nullptr || m->getAddressSpace() != 1)
      return;
    ItemState& s = item(wi);
    if (s.depth > 0)
      return; // inside xwg's library
    const size_t buffer = m->extractBuffer(address);
    Access a;
    a.group = wi->getWorkGroup()->getGroupIndex();
    const oclgrind::Size3 lid = wi->getLocalID();
    const oclgrind::Size3 lsz = wi->getWorkGroup()->getGroupSize();
    a.item = lid.x + lsz.x * (lid.y + lsz.y * lid.z);
    a.lo = s.epoch;
    a.hi = s.epoch + (s.pending ? 1u : 0u);
    a.write = write;
    a.atomic = atomic;
    a.inst = wi->getCurrentInstruction();
    a.opened_at = s.opened_at;
    a.syncs = s.syncs;
    a.global = wi->getGlobalIndex();
    a.atomics = s.atomics;
    a.acquired = s.atomics > s.atomics_at_opened;
    std::lock_guard<std::mutex> lock(m_mutex);
    if (atomic)
      m_atomics[a.global] = ++s.atomics;
    if (std::find(m_ignored_buffers.begin(), m_ignored_buffers.end(),
                  buffer) != m_ignored_buffers.end())
      return;
    a.local_barriers = m_local_barriers[a.group];
    m_active_groups.insert(a.group);
    const size_t offset = m->extractOffset(address);
    for (size_t i = 0; i < size; i++)
      check_byte(m_shadow[address + i], a, buffer, offset + i);
  }

  // Checks a against what the byte's shadow holds, then records it.
  // Caller holds m_mutex.
  void check_byte(Shadow& sh, const Access& a, size_t buffer, size_t offset)
  {
    if (sh.has_write && conflict(sh.write, a))
      report(sh.write, a, buffer, offset);
    if (a.write) {
      for (const Access& r : sh.reads)
        if (conflict(r, a))
          report(r, a, buffer, offset);
      sh.reads.clear();
      sh.write = a;
      sh.has_write = true;
      return;
    }
    for (Access& r : sh.reads)
      if (r.group == a.group) {
        r = a;
        return;
      }
    sh.reads.push_back(a);
  }

  // Caller holds m_mutex (m_atomics).
  void report(const Access& first, const Access& second, size_t buffer,
              size_t offset)
  {
    const bool atomics_only =
        second.acquired && m_atomics[first.global] > first.atomics;
    auto key = std::make_tuple(first.inst, second.inst, buffer, atomics_only);
    Race& r = m_races[key];
    if (r.count++ == 0) {
      r.atomics_only = atomics_only;
      r.first = first;
      r.second = second;
      r.buffer = buffer;
      r.lo = r.hi = offset;
    }
    r.lo = std::min(r.lo, offset);
    r.hi = std::max(r.hi, offset);
  }

  // The user's source line `line`, without its indent.
  std::string source_line(unsigned line) const
  {
    const char* text =
        line ? m_program->getSourceLine(m_first_line + line - 1) : nullptr;
    if (text == nullptr)
      return "";
    while (*text == ' ' || *text == '\t')
      text++;
    const char* end = strchr(text, '\n');
    return end ? std::string(text, end) : std::string(text);
  }

  // The line of the synchronisation that ends a's interval: its group's
  // next one; 0 when the kernel ended first. Caller holds m_mutex.
  unsigned closing_line(const Access& a) const
  {
    auto g = m_sync_lines.find(a.group);
    if (g == m_sync_lines.end())
      return 0;
    auto next = g->second.find(a.syncs + 1);
    return next == g->second.end() ? 0 : next->second;
  }

  void write_side(const char* name, const Access& a)
  {
    const Where w = where(a.inst);
    fprintf(m_out,
            "\"%s\":{\"line\":%u,\"file\":%s,\"group\":%zu,\"item\":%zu,"
            "\"op\":\"%s%s\",\"interval\":[%u,%u],\"after_line\":%u,"
            "\"before_line\":%u,\"text\":%s}",
            name, w.line, json_string(w.file).c_str(), a.group, a.item,
            a.atomic ? "atomic " : "", a.write ? "write" : "read", a.lo, a.hi,
            a.opened_at, closing_line(a),
            json_string(source_line(w.line)).c_str());
  }

  void write_race(const Race& r)
  {
    auto name = m_buffer_names.find(r.buffer);
    fprintf(m_out, "{\"kind\":\"%s\",\"kernel\":%s,\"buffer\":%s,"
                   "\"bytes\":[%zu,%zu],\"count\":%u,",
            r.atomics_only ? "atomics-only" : "race",
            json_string(m_kernel).c_str(),
            json_string(name != m_buffer_names.end() ? name->second : "?")
                .c_str(),
            r.lo, r.hi, r.count);
    write_side("first", r.first);
    fputc(',', m_out);
    write_side("second", r.second);
    fputs("}\n", m_out);
  }

  FILE* m_out = nullptr;
  std::mutex m_mutex; // guards everything below
  std::string m_kernel;
  const oclgrind::Program* m_program = nullptr;
  size_t m_first_line = 1;
  bool m_checked = false;
  std::atomic<unsigned> m_invocation{0}; // read by the worker threads
  std::unordered_map<size_t, Shadow> m_shadow; // by byte address
  std::map<std::tuple<const llvm::Instruction*, const llvm::Instruction*,
                      size_t, bool>,
           Race>
      m_races;
  // Per work-item (global index): its atomic accesses so far.
  std::unordered_map<size_t, unsigned> m_atomics;
  // Per group: the line of its k-th synchronisation, by k (from 1).
  std::unordered_map<size_t, std::map<unsigned, unsigned>> m_sync_lines;
  std::unordered_set<size_t> m_active_groups; // that touched user buffers
  std::unordered_map<size_t, size_t> m_local_barriers; // by group
  // Per group, by how many synchronisations its work-items made: how
  // many made that many, and where the last was called.
  struct Reached
  {
    unsigned items = 0, last_line = 0;
  };
  std::map<size_t, std::map<unsigned, Reached>> m_group_syncs;
  std::vector<std::pair<size_t, std::string>> m_divergent;
  std::map<size_t, std::string> m_buffer_names;
  std::vector<size_t> m_ignored_buffers;
};

RaceCheck* the_plugin = nullptr;

} // namespace

extern "C" void initializePlugins(oclgrind::Context* context)
{
  the_plugin = new RaceCheck(context);
  context->registerPlugin(the_plugin);
}

extern "C" void releasePlugins(oclgrind::Context* context)
{
  context->unregisterPlugin(the_plugin);
  delete the_plugin;
  the_plugin = nullptr;
}
