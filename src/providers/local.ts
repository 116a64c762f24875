/** The `local` provider: state and receipts live in the notes only, so there is nothing to mirror. */
import type { Provider } from './types.js';

export const localProvider: Provider = {
  name: 'local',
  describe: async () => null,
  plan: async () => [],
  pullRequest: async () => null,
  inspect: async () => null,
};
