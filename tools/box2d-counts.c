// Prints Box2D v3's body and awake-body counts over time for the scripted
// benchmarks (rain, junkyard), to compare with `minkowski run SCENE --trace`.
// Build against a Box2D v3 build tree (see tools/compare-box2d.sh):
//   cc -O2 -I$B2/include -I$B2/shared tools/box2d-counts.c \
//      $B2/build/shared/libshared.a $B2/build/src/libbox2d.a -lm -o box2d-counts
// Usage: box2d-counts rain|junkyard STEPS EVERY
#include "benchmarks.h"
#include "box2d/box2d.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main( int argc, char** argv )
{
	if ( argc != 4 )
	{
		fprintf( stderr, "usage: %s rain|junkyard STEPS EVERY\n", argv[0] );
		return 2;
	}
	int steps = atoi( argv[2] ), every = atoi( argv[3] );
	b2WorldDef worldDef = b2DefaultWorldDef();
	worldDef.workerCount = 1;
	b2WorldId world = b2CreateWorld( &worldDef );
	float ( *stepFcn )( b2WorldId, int ) = NULL;
	if ( strcmp( argv[1], "rain" ) == 0 )
	{
		CreateRain( world );
		stepFcn = StepRain;
	}
	else if ( strcmp( argv[1], "junkyard" ) == 0 )
	{
		CreateJunkyard( world );
		stepFcn = StepJunkyard;
	}
	else
	{
		fprintf( stderr, "unknown benchmark %s\n", argv[1] );
		return 2;
	}
	printf( "step,bodies,awake\n" );
	for ( int i = 0; i < steps; ++i )
	{
		stepFcn( world, i );
		b2World_Step( world, 1.0f / 60.0f, 4 );
		if ( ( i + 1 ) % every == 0 )
		{
			b2Counters c = b2World_GetCounters( world );
			printf( "%d,%d,%d\n", i + 1, c.bodyCount, b2World_GetAwakeBodyCount( world ) );
		}
	}
	b2DestroyWorld( world );
	return 0;
}
