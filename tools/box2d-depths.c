// Prints, for one of Box2D v3's benchmark scenes, its awake touching
// contacts, how many of them are deeper than 10 cm and 2 cm, the deepest,
// and the awake bodies' kinetic energy and x momentum over time, to compare
// with `minkowski run SCENE --trace` (see docs/2026-11-29-jams-in-free-crowds.md).
// It reads Box2D's internals (the constraint graph and the awake solver
// set), so it needs Box2D's src/ headers as well as its public ones.
// Build against a Box2D v3 build tree (see tools/compare-box2d.sh):
//   cc -O2 -I$B2/include -I$B2/shared -I$B2/src tools/box2d-depths.c \
//      $B2/build/shared/libshared.a $B2/build/src/libbox2d.a -lm -o box2d-depths
// Usage: box2d-depths SCENE STEPS EVERY
#include "box2d-scenes.h"

#include "body.h"
#include "constraint_graph.h"
#include "contact.h"
#include "physics_world.h"
#include "solver_set.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void Report( b2WorldId id, int step )
{
	b2World* w = b2GetWorldFromId( id );
	int touching = 0, over10 = 0, over2 = 0;
	float deepest = 0.0f;
	for ( int c = 0; c < B2_GRAPH_COLOR_COUNT; ++c )
	{
		b2GraphColor* color = w->constraintGraph.colors + c;
		for ( int i = 0; i < color->contactSims.count; ++i )
		{
			b2Manifold* m = &color->contactSims.data[i].manifold;
			if ( m->pointCount == 0 )
			{
				continue;
			}
			touching += 1;
			float depth = 0.0f;
			for ( int k = 0; k < m->pointCount; ++k )
			{
				depth = -m->points[k].separation > depth ? -m->points[k].separation : depth;
			}
			over10 += depth > 0.1f;
			over2 += depth > 0.02f;
			deepest = depth > deepest ? depth : deepest;
		}
	}
	b2SolverSet* set = w->solverSets.data + b2_awakeSet;
	double kinetic = 0.0, px = 0.0;
	for ( int i = 0; i < set->bodySims.count; ++i )
	{
		b2BodySim* b = set->bodySims.data + i;
		b2BodyState* s = set->bodyStates.data + i;
		if ( b->invMass == 0.0f )
		{
			continue;
		}
		double m = 1.0 / b->invMass;
		b2Vec2 v = s->linearVelocity;
		kinetic += 0.5 * m * ( v.x * v.x + v.y * v.y );
		if ( b->invInertia > 0.0f )
		{
			kinetic += 0.5 / b->invInertia * s->angularVelocity * s->angularVelocity;
		}
		px += m * v.x;
	}
	printf( "%d,%d,%d,%d,%.4f,%.1f,%.2f\n", step, touching, over10, over2, deepest, kinetic, px );
}

int main( int argc, char** argv )
{
	if ( argc != 4 )
	{
		fprintf( stderr, "usage: %s SCENE STEPS EVERY\n", argv[0] );
		return 2;
	}
	int steps = atoi( argv[2] ), every = atoi( argv[3] );
	if ( steps < 1 || every < 1 )
	{
		fprintf( stderr, "STEPS and EVERY must be at least 1\n" );
		return 2;
	}
	b2WorldDef worldDef = b2DefaultWorldDef();
	worldDef.workerCount = 1;
	b2WorldId world = b2CreateWorld( &worldDef );
	BenchmarkStepFcn* stepFcn = NULL;
	if ( CreateBenchmark( argv[1], world, &stepFcn ) == false )
	{
		fprintf( stderr, "unknown benchmark %s\n", argv[1] );
		return 2;
	}
	printf( "step,touching,deeper_than_10cm,deeper_than_2cm,deepest,kinetic,momentum_x\n" );
	for ( int i = 0; i < steps; ++i )
	{
		if ( stepFcn != NULL )
		{
			stepFcn( world, i );
		}
		b2World_Step( world, 1.0f / 60.0f, 4 );
		if ( ( i + 1 ) % every == 0 )
		{
			Report( world, i + 1 );
		}
	}
	b2DestroyWorld( world );
	return 0;
}
