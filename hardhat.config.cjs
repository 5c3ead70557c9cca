// The in-process development chain used by `npm run facilitator` and the payment tests
// (devchain/chain.ts). Nothing is compiled by Hardhat: the token is compiled with solc-js.
// Accounts are Hardhat's well-known test keys; never use them on a real network.
module.exports = {
  networks: {
    hardhat: {
      chainId: 31337,
      // Blocks mined within one second share its timestamp. By default each block is a second
      // later than the last, so after a few hundred quick settlements (one block each) the chain's
      // clock ran minutes ahead and every fresh authorization looked expired to it (the bench's
      // paid runs through the facilitator were refused from about the 300th payment on).
      allowBlocksWithSameTimestamp: true,
      accounts: [
        { privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80', balance: '10000000000000000000000' },
        { privateKey: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d', balance: '10000000000000000000000' },
        { privateKey: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a', balance: '10000000000000000000000' },
        { privateKey: '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6', balance: '10000000000000000000000' },
      ],
    },
  },
};
