// Prints Box2D v3's body and awake-body counts over time for one of its
// benchmark scenes, to compare with `minkowski run SCENE --trace`: also its contacts, the awake touching ones
// (the constraint graph's colours), and, over the bodies that have moved,
// their kinetic energy and the rms distance from their mean position.
// Build against a Box2D v3 build tree (see tools/compare-box2d.sh):
//   cc -O2 -I$B2/include -I$B2/shared tools/box2d-counts.c \
//      $B2/build/shared/libshared.a $B2/build/src/libbox2d.a -lm -o box2d-counts
// Usage: box2d-counts SCENE STEPS EVERY
#include "box2d-scenes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main( int argc, char** argv )
{
	if ( argc != 4 )
	{
		fprintf( stderr, "usage: %s SCENE STEPS EVERY\n", argv[0] );
		return 2;
	}
	int steps = atoi( argv[2] ), every = atoi( argv[3] );
	b2WorldDef worldDef = b2DefaultWorldDef();
	worldDef.workerCount = 1;
	b2WorldId world = b2CreateWorld( &worldDef );
	BenchmarkStepFcn* stepFcn = NULL;
	if ( CreateBenchmark( argv[1], world, &stepFcn ) == false )
	{
		fprintf( stderr, "unknown benchmark %s\n", argv[1] );
		return 2;
	}
	// The benchmarks keep no body handles: the bodies that have moved are
	// known from the move events, by index (the others are at rest).
	int capacity = 1 << 16;
	b2BodyId* moved = calloc( capacity, sizeof( b2BodyId ) );
	char* seen = calloc( capacity, 1 );
	int movedCount = 0;
	printf( "step,bodies,awake,contacts,touching,moved,kinetic,spread\n" );
	for ( int i = 0; i < steps; ++i )
	{
		if ( stepFcn != NULL )
		{
			stepFcn( world, i );
		}
		b2World_Step( world, 1.0f / 60.0f, 4 );
		b2BodyEvents events = b2World_GetBodyEvents( world );
		for ( int k = 0; k < events.moveCount; ++k )
		{
			b2BodyId id = events.moveEvents[k].bodyId;
			if ( id.index1 < capacity && seen[id.index1] == 0 )
			{
				seen[id.index1] = 1;
				moved[movedCount++] = id;
			}
		}
		if ( ( i + 1 ) % every == 0 )
		{
			b2Counters c = b2World_GetCounters( world );
			int touching = 0;
			for ( int k = 0; k < 24; ++k )
			{
				touching += c.colorCounts[k];
			}
			double kinetic = 0.0, mx = 0.0, my = 0.0, spread = 0.0;
			int live = 0;
			for ( int k = 0; k < movedCount; ++k )
			{
				if ( b2Body_IsValid( moved[k] ) == false )
				{
					continue;
				}
				b2Vec2 v = b2Body_GetLinearVelocity( moved[k] );
				float w = b2Body_GetAngularVelocity( moved[k] );
				kinetic += 0.5 * b2Body_GetMass( moved[k] ) * ( v.x * v.x + v.y * v.y ) +
						   0.5 * b2Body_GetRotationalInertia( moved[k] ) * w * w;
				b2Vec2 p = b2Body_GetPosition( moved[k] );
				mx += p.x;
				my += p.y;
				live += 1;
			}
			mx = live > 0 ? mx / live : 0.0;
			my = live > 0 ? my / live : 0.0;
			for ( int k = 0; k < movedCount; ++k )
			{
				if ( b2Body_IsValid( moved[k] ) )
				{
					b2Vec2 p = b2Body_GetPosition( moved[k] );
					spread += ( p.x - mx ) * ( p.x - mx ) + ( p.y - my ) * ( p.y - my );
				}
			}
			spread = live > 0 ? sqrt( spread / live ) : 0.0;
			printf( "%d,%d,%d,%d,%d,%d,%.0f,%.2f\n", i + 1, c.bodyCount, b2World_GetAwakeBodyCount( world ),
					c.contactCount, touching, live, kinetic, spread );
		}
	}
	free( moved );
	free( seen );
	b2DestroyWorld( world );
	return 0;
}
