export default { root: __dirname, logLevel: 'info' };
