// Helpers shared by the Node tests (no tests of its own).
import assert from "node:assert/strict";
import { GunbaiError } from "../pkg/index.js";

/** Run `fn`, which must throw a `GunbaiError`; returns the error. */
export function refused(fn) {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof GunbaiError, `expected GunbaiError, got ${e}`);
    return e;
  }
  assert.fail("expected a GunbaiError");
}
