// What `GET /version` answers: a kube-apiserver 1.32 (the kubectl dispatcher on
// these machines picks its kubectl build from `minor`).
export const VERSION_INFO = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.0',
  gitCommit: '70d3cc986aa8221cd1dfb1121852688902d3bf53',
  gitTreeState: 'clean',
  buildDate: '2024-12-11T17:59:15Z',
  goVersion: 'go1.23.3',
  compiler: 'gc',
  platform: 'linux/amd64',
};
