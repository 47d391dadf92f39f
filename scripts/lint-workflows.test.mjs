import { describe, expect, it } from "vitest";
import { lintWorkflow } from "./lint-workflows.mjs";

const workflow = (runsOn, needs = "build", field = "label") => `name: t
on: workflow_dispatch
jobs:
  build:
    runs-on: ${runsOn}
    strategy:
      matrix:
        label: [a, b]
    steps:
      - run: echo "\${{ matrix.${field} }}"
  merge:
    needs: ${needs}
    runs-on: ubuntu-latest
    steps:
      - run: echo done
`;

describe("lintWorkflow", () => {
  it("passes a sound workflow on a current runner label", async () => {
    expect(await lintWorkflow(workflow("ubuntu-24.04-arm"), "w.yml")).toEqual([]);
  });

  it("finds a job graph, an expression and a runner label that are wrong", async () => {
    const found = await lintWorkflow(workflow("ubuntu-99.04", "bulid", "lable"), "w.yml");
    expect(found.join("\n")).toMatch(/w\.yml:\d+:\d+: .*ubuntu-99\.04.*\[runner-label\]/);
    expect(found.join("\n")).toMatch(/bulid/);
    expect(found.join("\n")).toMatch(/lable/);
  });
});
