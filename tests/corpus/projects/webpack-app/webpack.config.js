// `webpack` builds src/ (broken: a missing module, a syntax error);
// `webpack --env ok` builds src-ok/ into dist/.
const path = require('path');

module.exports = (env) => ({
  mode: 'production',
  entry: env.ok ? './src-ok/main.js' : './src/index.js',
  output: {
    path: path.resolve(__dirname, 'dist'),
    filename: env.ok ? 'app.[contenthash:8].js' : 'broken.js',
    clean: true,
  },
  optimization: {
    splitChunks: { chunks: 'all', minSize: 0 },
  },
  performance: { hints: 'warning', maxEntrypointSize: 4000, maxAssetSize: 4000 },
});
