import { describe } from 'vitest';
import { LocalWorkspace } from '../../plugins/sandbox-local/src/local-workspace.js';
import { fileContractTests, type ContractBackend } from '../sandbox/file-contract.js';
import { raceCampaignTests } from '../sandbox/race-campaign.js';

const local: ContractBackend = {
  keepsOwner: process.getuid?.() === 0,
  async open(hostDir, options) {
    return { ws: new LocalWorkspace({ workspaceDir: hostDir, ...options }), sandboxDir: hostDir, close: async () => undefined };
  },
};

describe('local backend: file-operation contract', () => {
  fileContractTests(local);
  raceCampaignTests(local, 600);
});
