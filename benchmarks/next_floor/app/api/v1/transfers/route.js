import { floorRoute } from "../../../../floor-route.js";

export const dynamic = "force-dynamic";
export const POST = floorRoute("POST /api/v1/transfers");
