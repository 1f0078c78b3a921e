// Core as it runs, keeping the signing keys the platform hands it: for tests that mint tokens of
// another shape, or derive what core derives from its key (password attempt subjects).
import type { SigningKeys } from "@signage/auth";
import type { ServiceModule } from "@signage/runtime";
import { coreModule } from "../src/module.js";

export function coreKeepingKeys(): { module: ServiceModule; keys(): SigningKeys } {
  let kept: SigningKeys | undefined;
  return {
    module: {
      ...coreModule,
      create: async (ctx) => {
        kept = ctx.signingKeys;
        return coreModule.create(ctx);
      },
    },
    keys() {
      if (!kept) throw new Error("core has not started yet");
      return kept;
    },
  };
}
