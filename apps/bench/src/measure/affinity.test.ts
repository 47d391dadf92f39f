import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { forkAffinity, parseCpuList } from "./affinity.js";
import { NODE_RUNTIME } from "./runtime.js";

describe("parseCpuList", () => {
  it("reads single CPUs and ranges", () => {
    expect(parseCpuList("0-1\n")).toEqual([0, 1]);
    expect(parseCpuList("0,2-4,8")).toEqual([0, 2, 3, 4, 8]);
    expect(parseCpuList("5")).toEqual([5]);
  });

  it("refuses what it cannot read", () => {
    expect(() => parseCpuList("a-b")).toThrow(/unreadable CPU list/);
    expect(() => parseCpuList("3-1")).toThrow(/unreadable CPU list/);
  });
});

describe("forkAffinity", () => {
  it("leaves the command alone without --pin", () => {
    const a = forkAffinity(false);
    expect(a.note).toBe("none");
    expect(a.command(NODE_RUNTIME.command!, 3)).toBe(NODE_RUNTIME.command);
  });

  it.runIf(process.platform === "linux")("says why not where taskset cannot be found", () => {
    const path = process.env.PATH;
    process.env.PATH = "/nonexistent";
    try {
      const a = forkAffinity(true);
      expect(a.note).toBe("none (taskset is not installed: it comes with util-linux)");
      expect(a.command(NODE_RUNTIME.command!, 1)).toBe(NODE_RUNTIME.command);
    } finally {
      process.env.PATH = path;
    }
  });

  // The VMs this runs on are Linux, where util-linux (taskset) is part of every Debian.
  it.runIf(process.platform === "linux")(
    "starts each fork's processes on one CPU, the forks taking the allowed CPUs in turn",
    () => {
      const a = forkAffinity(true);
      expect(a.note).toMatch(/^one CPU per fork, in turn: [\d, ]+ \(taskset\)$/);
      const cpus = a.note
        .replace(/^.*: /, "")
        .replace(/ \(.*$/, "")
        .split(", ")
        .map(Number);
      for (let fork = 0; fork < cpus.length + 1; fork++) {
        const c = a.command(
          {
            file: process.execPath,
            args: ["-p", "require('fs').readFileSync('/proc/self/status','utf8')"],
          },
          fork,
        );
        const { stdout, status } = spawnSync(c.file, c.args, { encoding: "utf8" });
        expect(status).toBe(0);
        expect(/^Cpus_allowed_list:\s*(.*)$/m.exec(stdout)?.[1]).toBe(
          String(cpus[fork % cpus.length]),
        );
      }
    },
  );
});
