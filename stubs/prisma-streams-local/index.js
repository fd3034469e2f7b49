// `prisma dev` (Prisma's local Prisma Postgres server) is the only user of @prisma/streams-local, which needs
// Node >= 22. This project runs its own embedded Postgres (PGlite) and never runs `prisma dev`, so the package
// is replaced by this one (package.json "overrides") to keep `npm install` on Node 20 free of EBADENGINE.
export async function startLocalDurableStreamsServer() {
  throw new Error(
    'prisma dev is not supported in this project (see README "Why each dependency is here"); use npm start',
  );
}
