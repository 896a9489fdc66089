import { floorRoute } from "../../../../floor-route.js";

export const dynamic = "force-dynamic";
export const GET = floorRoute("GET /api/v1/posts");
