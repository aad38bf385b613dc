/**
 * The seccomp filter of a plugin that did not declare `spawn`: it may start threads but no
 * process. bubblewrap loads the compiled classic-BPF program (`--seccomp FD`) just before it
 * starts the plugin, so the plugin's own start is unaffected and every fork after it fails
 * with EPERM. Foreign syscall ABIs (i386, x32, arm32) are refused whole: they have their own
 * fork numbers.
 */

const LD_W_ABS = 0x20;
const JEQ = 0x15;
const JGE = 0x35;
const JSET = 0x45;
const RET = 0x06;

const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;
const CLONE_THREAD = 0x00010000;
/** x32 syscalls on x86_64 carry this bit. */
const X32_SYSCALL_BIT = 0x40000000;

/** Offsets in `struct seccomp_data`: nr, arch, args[0] (low word, little-endian). */
const NR = 0;
const ARCH = 4;
const ARG0_LOW = 16;

interface ArchSyscalls {
  audit: number;
  clone: number;
  clone3: number;
  /** Syscalls that always create a process (none on aarch64). */
  forks: number[];
}

const ARCHES: Record<string, ArchSyscalls> = {
  x64: { audit: 0xc000003e, clone: 56, clone3: 435, forks: [57, 58] },
  arm64: { audit: 0xc00000b7, clone: 220, clone3: 435, forks: [] },
};

type Insn = [code: number, jt: number | string, jf: number | string, k: number];

/**
 * The filter for `arch` (`process.arch`), or undefined where we have no syscall table: the
 * caller then cannot enforce "no spawn" and must say so.
 */
export function noSpawnFilter(arch: string = process.arch): Buffer | undefined {
  const a = ARCHES[arch];
  if (!a) return undefined;
  const program: Insn[] = [
    [LD_W_ABS, 0, 0, ARCH],
    [JEQ, 0, 'deny', a.audit],
    [LD_W_ABS, 0, 0, NR],
    ...(arch === 'x64' ? ([[JGE, 'deny', 0, X32_SYSCALL_BIT]] as Insn[]) : []),
    ...a.forks.map((nr): Insn => [JEQ, 'deny', 0, nr]),
    // clone3 passes its flags in memory a filter cannot read: ENOSYS makes libc fall back to clone.
    [JEQ, 'nosys', 0, a.clone3],
    [JEQ, 0, 'allow', a.clone],
    [LD_W_ABS, 0, 0, ARG0_LOW],
    [JSET, 'allow', 'deny', CLONE_THREAD],
  ];
  const tail: Array<[label: string, k: number]> = [
    ['allow', RET_ALLOW],
    ['deny', RET_ERRNO | EPERM],
    ['nosys', RET_ERRNO | ENOSYS],
  ];
  const at = new Map(tail.map(([label], i) => [label, program.length + i]));
  const jump = (from: number, to: number | string): number => (typeof to === 'number' ? to : at.get(to)! - from - 1);
  const insns = [...program.map(([code, jt, jf, k], i): Insn => [code, jump(i, jt), jump(i, jf), k]), ...tail.map(([, k]): Insn => [RET, 0, 0, k])];
  const out = Buffer.alloc(insns.length * 8);
  insns.forEach(([code, jt, jf, k], i) => {
    out.writeUInt16LE(code, i * 8);
    out.writeUInt8(jt as number, i * 8 + 2);
    out.writeUInt8(jf as number, i * 8 + 3);
    out.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return out;
}
