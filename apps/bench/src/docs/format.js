// How the generated blocks write a run's date, commit, machine and runtime.

export const day = (iso) => iso.slice(0, 10);
export const short = (commit) => `\`${commit.replace(/-dirty$/, "").slice(0, 7)}\``;
export const machine = (e) => `${e.cpu} × ${e.cores} cores`;
/** The runtime the forks timed in (reports before `--runtime` was recorded: the bench's Node). */
export const timedIn = (e) =>
  e.runtime && !e.runtime.name.startsWith("node")
    ? `${e.runtime.name} ${e.runtime.version}`
    : `Node ${e.runtime?.version ?? e.node.replace(/^v/, "")}`;
