/**
 * Production mode for a benchmark that runs the service in its own process (bench:graph), as
 * `serviceEnv` gives the child processes of the others. Imported first: graphql-js and Express read
 * NODE_ENV once, when they load (graphql-js' development `instanceOf` inspects every failed type check
 * for a second copy of the library, ~1 ms of the dashboard query).
 */
process.env.NODE_ENV = 'production';
