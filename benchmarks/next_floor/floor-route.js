// A Next.js route handler as Next's documentation writes one (a Web Request in, a Response
// out), answering with the floor's route of this process: floor_server.mjs puts the floor's
// routes on globalThis before it starts Next in the same process.
export function floorRoute(key) {
  return async (request) => {
    const route = globalThis.floorRoutes[key];
    const body = request.method === "POST" ? await request.json() : null;
    const [status, answer] = await route({ headers: Object.fromEntries(request.headers) }, body);
    return Response.json(answer, { status });
  };
}
